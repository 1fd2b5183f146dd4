/* OnSceneLoaded(const scene_load *): a listener that may write through the pointer is refused. */
#include "generated_events_sample.h"

static void on_loaded(void *ctx, const scene_load *load) { (void)ctx; (void)load; }
#ifdef TL_EXPECT_FAIL
static void on_loaded_mutable(void *ctx, scene_load *load) { (void)ctx; load->additive = 1; }
#endif

bool tl_compile_fail_case(tl_events *reg);
bool tl_compile_fail_case(tl_events *reg) {
    bool ok = Iris_Events_OnSceneLoaded_subscribe(reg, on_loaded, NULL) == TL_EVENTS_OK;
#ifdef TL_EXPECT_FAIL
    ok = Iris_Events_OnSceneLoaded_subscribe(reg, on_loaded_mutable, NULL) == TL_EVENTS_OK && ok; /* EXPECTED-ERROR Iris_Events_OnSceneLoaded_fn */
#endif
    return ok;
}
