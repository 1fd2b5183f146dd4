/* OnInteract() -> bool: a provider returning int is refused. */
#include "generated_events_sample.h"

static bool interact(void *ctx) { (void)ctx; return true; }
#ifdef TL_EXPECT_FAIL
static int interact_int(void *ctx) { (void)ctx; return 1; }
#endif

bool tl_compile_fail_case(tl_events *reg);
bool tl_compile_fail_case(tl_events *reg) {
    bool ok = Iris_Events_OnInteract_subscribe(reg, interact, NULL) == TL_EVENTS_OK;
#ifdef TL_EXPECT_FAIL
    ok = Iris_Events_OnInteract_subscribe(reg, interact_int, NULL) == TL_EVENTS_OK && ok; /* EXPECTED-ERROR Iris_Events_OnInteract_fn */
#endif
    return ok;
}
