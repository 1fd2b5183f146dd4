/* Only this file includes spawn_points.h. */
#include <stdio.h>

#include "spawn_points.h"

void print_spawns(void);
void print_spawns(void)
{
#define PRINT(enumerator, name) printf("spawn %-10s %10u\n", #name, (unsigned)(uint32_t)(enumerator));
    NEXUS_SPAWNPOINTS_LIST(PRINT)
#undef PRINT
}
