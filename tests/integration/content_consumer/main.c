/* Prints every asset the catalog header names, with its size. */
#include "content_game_catalog.h"

#include <stdio.h>

int main(void)
{
    const content_game_asset *assets = content_game_assets();
    for (int i = 0; i < CONTENT_GAME_ASSET_COUNT; i++)
        printf("%s %llu\n", assets[i].name, (unsigned long long)assets[i].size);
    return 0;
}
