/* A CMake consumer: headers and content are build steps (threadlink_generate in CMakeLists.txt). */
#include <stdio.h>

#include "content_game_catalog.h"

void print_fields(void);
void print_spawns(void);

int main(void)
{
    print_fields();
    print_spawns();
    const content_game_asset *assets = content_game_assets();
    for (int i = 0; i < CONTENT_GAME_ASSET_COUNT; i++)
        printf("asset %s %llu\n", assets[i].name, (unsigned long long)assets[i].size);
    return 0;
}
