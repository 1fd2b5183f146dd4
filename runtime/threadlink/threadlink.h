/* SPDX-License-Identifier: MIT (see LICENSE; copyright the threadlink authors) */
/* threadlink/threadlink.h -- the whole runtime in one include.

       #include <threadlink/threadlink.h>
       #define TL_IMPLEMENTATION       // in exactly one C or C++ file, before the include
       #include <threadlink/threadlink.h>

   TL_IMPLEMENTATION is the umbrella: it turns on the switch of every module the file includes,
   TL_TIME_IMPL, TL_LIFECYCLE_IMPL, TL_VAULT_IMPL, TL_CONTENT_IMPL, TL_PLATFORM_LOCAL_IMPL,
   TL_SAVE_IMPL, TL_LEVELS_IMPL, TL_PLATFORM_IMPL, TL_PATCH_IMPL, TL_AUDIO_IMPL, TL_INPUT_IMPL,
   TL_INTERFACE_IMPL and TL_L10N_IMPL; the core (api.h, log.h,
   events.h, hash.h, mem.h, collections.h, fp.h, rng.h), the formats (text.h, content_format.h)
   and glue.h are static inline and have none (under TL_MEM_DEBUG, one file defines TL_MEM_IMPL
   for the live-block list). Several files may define TL_IMPLEMENTATION, each implementing the
   services it includes, as SOKOL_IMPL may. Each switch emits its own module's
   implementation and no other, so a program may instead spread them over its files, each module
   in exactly one. TL_API (api.h) makes the runtime static (TL_STATIC) or a shared library
   (TL_SHARED, TL_BUILD_SHARED).

   Each module can also be included on its own; see the usage block at the top of each header.
   The usage blocks are C. In C++ a desc is zeroed with `= {}` (`= {0}` fails under -Wextra), and
   in both a generated enumerator goes where a uint32_t is taken through its domain's _U32 macro,
   NEXUS_LEVELS_U32(Nexus_Levels_Farm): one above INT_MAX is negative (docs/runtime.md, "C and C++").
   The core: fp.h (Q32.32 fixed point), rng.h (stateless random streams), hash.h (XXH32, XXH64),
   mem.h (blocks), collections.h (inline collections), log.h (logging, the seed's Scribe),
   events.h (events, the seed's Iris). The formats: text.h (the text rules of names),
   content_format.h (the readers of the content formats). The services: time.h (the frame clock,
   the seed's Chronos), lifecycle.h (batches and subsystems, the seed's Initium), levels.h (holds,
   loading, presentation: the seed's Nexus), vault.h (vault descriptors and serialisation),
   content.h (content directories and scopes), save.h (crash-safe saves), platform.h (platform
   services), patch.h (patch plans: what an updater downloads, keeps and deletes), audio.h (music,
   ambience and effects policy: the seed's Aura), input.h (actions, modes, devices, rebinding,
   prompt glyphs: the seed's Dextra), interface.h (the interface stack, selectables,
   interactables: the seed's Dextra), l10n.h (localised text: text tables, the locale switch,
   typed formatting). The glue: platform_local.h (the Local platform
   over save.h) and glue.h (where two services meet).
*/
/* No include guard of its own: each module guards its declarations and its implementation
   separately, so including this file again after defining TL_IMPLEMENTATION (the order above)
   must reach every module again to emit the implementations. */
#include "fp.h"
#include "rng.h"
#include "hash.h"
#include "mem.h"
#include "collections.h"
#include "log.h"
#include "events.h"
#include "time.h"
#include "lifecycle.h"
#include "levels.h"
#include "vault.h"
#include "text.h"
#include "content_format.h"
#include "content.h"
#include "save.h"
#include "platform_local.h"
#include "platform.h"
#include "patch.h"
#include "audio.h"
#include "input.h"
#include "interface.h"
#include "l10n.h"
#include "glue.h"
