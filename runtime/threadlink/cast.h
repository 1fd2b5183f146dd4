/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/cast.h -- named casts and the null pointer for the code that the runtime's macros,
   typed wrappers and generated headers put in the including file, which may be C or C++.
   Internal (included by mem.h and events.h): nothing here is API.
*/
#ifndef TL_CAST_H
#define TL_CAST_H

#include <stddef.h>

/* Casts and the null pointer in code that expands in the including file (the macros below, the
 * typed wrappers, the generated headers): named casts in C++, so a program built with
 * -Wold-style-cast, -Wzero-as-null-pointer-constant or -Wuseless-cast stays quiet (g++ does not
 * call a conversion useless inside a template, and whether one is depends on the target's types).
 */
#ifndef TL__CAST
#if defined(__cplusplus) && __cplusplus >= 201103L
extern "C++" {
template <typename T, typename U> constexpr T tl__cast(U v) { return static_cast<T>(v); }
template <typename T, typename U> inline T tl__fn_cast(U f) { return reinterpret_cast<T>(f); }
}
#define TL__CAST(T, v) tl__cast<T>(v)
#define TL__FN_CAST(T, f) tl__fn_cast<T>(f)
#define TL__NULL nullptr
#else
#define TL__CAST(T, v) ((T)(v))
#define TL__FN_CAST(T, f) ((T)(f))
#define TL__NULL NULL
#endif
#endif

#endif /* TL_CAST_H */
