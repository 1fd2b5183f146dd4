/* threadlink/threadlink.h -- the whole runtime in one include.

       #include <threadlink/threadlink.h>
       #define TL_IMPLEMENTATION       // in exactly one C or C++ file, before the include
       #include <threadlink/threadlink.h>

   Each module can also be included on its own; see the usage block at the top of each header:
   fp.h (Q32.32 fixed point), rng.h (stateless random streams), mem.h (blocks, hashes, inline
   collections), scribe.h (logging), iris.h (events), initium.h (lifecycle batches, subsystems, time), nexus.h (levels: holds, loading,
   presentation),
   vault.h (vault descriptors and serialisation), content.h (content directories and scopes;
   content_format.h, the readers of its formats, comes with it). */
/* No include guard of its own: each module guards its declarations and its implementation
   separately, so including this file again after defining TL_IMPLEMENTATION (the order above)
   must reach every module again to emit the implementations. */
#include "fp.h"
#include "rng.h"
#include "mem.h"
#include "scribe.h"
#include "iris.h"
#include "initium.h"
#include "nexus.h"
#include "vault.h"
#include "content.h"
