/* OnUpdate(float) takes a float; this listener takes an int. */
#include "generated_events_sample.h"

static void on_update(void *ctx, float dt) { (void)ctx; (void)dt; }
#ifdef TL_EXPECT_FAIL
static void on_update_ticks(void *ctx, int ticks) { (void)ctx; (void)ticks; }
#endif

bool tl_compile_fail_case(tl_events *reg);
bool tl_compile_fail_case(tl_events *reg) {
    bool ok = Iris_Events_OnUpdate_subscribe(reg, on_update, NULL) == TL_EVENTS_OK;
#ifdef TL_EXPECT_FAIL
    ok = Iris_Events_OnUpdate_subscribe(reg, on_update_ticks, NULL) == TL_EVENTS_OK && ok; /* EXPECTED-ERROR Iris_Events_OnUpdate_fn */
#endif
    return ok;
}
