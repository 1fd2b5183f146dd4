/* A development build (TL_DEVELOPMENT) that tunes vault data while it runs, for vault_live.sh:
 * it registers enemies_data.h's instances, polls their image every 10 ms, and prints one line
 * per change event, "change <instance> <field> <value> <realtime ns>", until a file named
 * "stop" appears (or 60 s pass); then the final values, and it frees everything (ASan checks). */
#define TL_IMPLEMENTATION
#include "vaults/enemies_data.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static long long realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static const char *instance_name(const void *vault)
{
    for (uint32_t i = 0; i < ENEMIES_COUNT; i++)
        if (enemies_by_index(i) == vault) return enemies_names[i];
    return "?";
}

static void on_change(void *user, void *vault, uint32_t field_id)
{
    const enemy_vault *e = (const enemy_vault *)vault;
    (void)user;
    if (field_id == ENEMY_VAULT_ID_MaxHealth)
        printf("change %s MaxHealth %d %lld\n", instance_name(vault), (int)enemy_vault_get_MaxHealth(e), realtime_ns());
    else if (field_id == ENEMY_VAULT_ID_Speed)
        printf("change %s Speed %.3f %lld\n", instance_name(vault), tl_fp_to_double(enemy_vault_get_Speed(e)), realtime_ns());
    else
        printf("change %s #%u %lld\n", instance_name(vault), (unsigned)field_id, realtime_ns());
    fflush(stdout);
}

int main(void)
{
    tl_vault_live live;
    if (tl_vault_live_init(&live, NULL) != TL_VAULT_OK) return 1;
    if (tl_vault_live_add(&live, &enemies_live) != TL_VAULT_OK) return 1;
    if (tl_vault_subscribe_all(tl_vault_live_listeners(&live), NULL, on_change, NULL) != TL_VAULT_OK)
        return 1;
    printf("ready\n");
    fflush(stdout);
    for (int frame = 0; frame < 6000 && access("stop", F_OK) != 0; frame++) {
        struct timespec tick = {0, 10 * 1000 * 1000};
        tl_vault_live_update(&live);
        nanosleep(&tick, NULL);
    }
    const enemy_vault *goblin = enemies_by_name("Goblin");
    printf("final Goblin MaxHealth %d Speed %.3f\n", (int)enemy_vault_get_MaxHealth(goblin),
           tl_fp_to_double(enemy_vault_get_Speed(goblin)));
    tl_vault_live_discard(&live);
    return 0;
}
