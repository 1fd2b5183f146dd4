/* runtime.c - the threadlink runtime's implementation, once for the program, and stb_image's. */
#define TL_IMPLEMENTATION
#include <threadlink/threadlink.h>
#if defined(TL_DEVELOPMENT) /* the live instances are defined where the vault implementation is */
#include "vaults/enemies_data.h"
#include "vaults/maps_data.h"
#include "vaults/weapons_data.h"
#endif

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>
