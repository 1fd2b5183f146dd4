/* The threadlink_runtime static library (runtime/meson.build): every module of the runtime
 * implemented once, for projects that would rather link than choose a file to implement it in.
 * Built without the optional content codecs (TL_CONTENT_LZ4, TL_CONTENT_ZSTD) and without
 * TL_MEM_DEBUG; a program that wants those implements the runtime in its own file instead.
 * SPDX-License-Identifier: MIT */
#define TL_IMPLEMENTATION
#include <threadlink/threadlink.h>
