/* runtime.c - the threadlink runtime's implementation, once for the program, and stb_image's. */
#define TL_IMPLEMENTATION
#include <threadlink/threadlink.h>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>
