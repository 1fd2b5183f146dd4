/* Every listener takes the context pointer first; this one forgot it. */
#include "generated_events_sample.h"

static void on_update(void *ctx, float dt) { (void)ctx; (void)dt; }
#ifdef TL_EXPECT_FAIL
static void on_update_no_ctx(float dt) { (void)dt; }
#endif

bool tl_compile_fail_case(tl_events *reg);
bool tl_compile_fail_case(tl_events *reg) {
    bool ok = Iris_Events_OnUpdate_subscribe(reg, on_update, NULL) == TL_EVENTS_OK;
#ifdef TL_EXPECT_FAIL
    ok = Iris_Events_OnUpdate_subscribe(reg, on_update_no_ctx, NULL) == TL_EVENTS_OK && ok; /* EXPECTED-ERROR Iris_Events_OnUpdate_fn */
#endif
    return ok;
}
