/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/api.h -- TL_API, the storage class and linkage of every runtime function.
   Included by every module with an implementation; nothing to include yourself.

   Every function a module implements (and the few objects it defines) is declared through TL_API,
   so one set of headers serves a program that links the runtime statically, a one-file game, and
   a shared library. Define one of these before including any runtime header, the same in every
   file of the program:

     (nothing)        TL_API is `extern`: each module is implemented in one file of the program
                      (its TL_<MODULE>_IMPL switch, or TL_IMPLEMENTATION for every module included).
     TL_STATIC        every runtime function is `static` (unused ones draw no warning): the file
                      that defines the implementation switches is the only one using the runtime.
     TL_SHARED        the runtime lives in a shared library. Define TL_BUILD_SHARED as well in the
                      library's own file (the one with the implementation switches): its functions
                      are exported -- __declspec(dllexport) on Windows, visibility("default") with
                      gcc and clang elsewhere, so a library built with -fvisibility=hidden exports
                      them; the program's files import them (__declspec(dllimport) on Windows).
     TL_API yourself  used as given, for a toolchain the above does not know.
*/
#ifndef TL_API_H
#define TL_API_H

#if defined(TL_STATIC) && defined(TL_SHARED)
#error "threadlink: TL_STATIC and TL_SHARED exclude each other (define one or neither)"
#endif
#if defined(TL_BUILD_SHARED) && !defined(TL_SHARED)
#error \
    "threadlink: TL_BUILD_SHARED is defined but TL_SHARED is not (the library exports only with both)"
#endif

/* The development switches (vault.h's TL_DEVELOPMENT, content.h's TL_CONTENT_LIVE, and the
   generated headers') are on when defined, whatever the value: defined as 0 (a build system's
   "TL_DEVELOPMENT=$<CONFIG:Debug>" in a release build) would ship development code (files read at
   run time), so it is refused. (0 - X - 1) is 1 only where X is defined empty. */
#if defined(TL_DEVELOPMENT) && (0 - TL_DEVELOPMENT - 1) != 1 && !(TL_DEVELOPMENT + 0)
#error \
    "threadlink: TL_DEVELOPMENT is defined as 0, which would switch development code on: leave it undefined to ship (CMake: $<$<CONFIG:Debug>:TL_DEVELOPMENT>)"
#endif
#if defined(TL_CONTENT_LIVE) && (0 - TL_CONTENT_LIVE - 1) != 1 && !(TL_CONTENT_LIVE + 0)
#error \
    "threadlink: TL_CONTENT_LIVE is defined as 0, which would switch development code on: leave it undefined to ship (CMake: $<$<CONFIG:Debug>:TL_CONTENT_LIVE>)"
#endif

#ifndef TL_API
#if defined(TL_STATIC) && (defined(__GNUC__) || defined(__clang__))
#define TL_API static __attribute__((unused))
#elif defined(TL_STATIC)
#define TL_API static
#elif defined(TL_SHARED) && (defined(_WIN32) || defined(__CYGWIN__))
#ifdef TL_BUILD_SHARED
#define TL_API extern __declspec(dllexport)
#else
#define TL_API extern __declspec(dllimport)
#endif
#elif defined(TL_SHARED) && (defined(__GNUC__) || defined(__clang__))
#define TL_API extern __attribute__((visibility("default")))
#else
#define TL_API extern
#endif
#endif

/* The definition of an object declared through TL_API: C reads a definition without a storage
   class as external, which contradicts a `static` declaration. */
#ifdef TL_STATIC
#define TL__API_DEFINE static
#else
#define TL__API_DEFINE
#endif

#endif /* TL_API_H */
