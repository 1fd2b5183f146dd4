#!/usr/bin/env python3
"""Draws the game's 16x16 sprites as PNG files (zlib, no other module). Run it once and commit
the PNGs: they are sources of the content pack, like hand-drawn art would be.

    python3 examples/game/tools/make_sprites.py examples/game/assets/Sprites
"""
import os
import struct
import sys
import zlib

PALETTE = {
    '.': (0, 0, 0, 0), 'k': (20, 20, 28, 255), 'w': (245, 245, 240, 255),
    'g': (70, 190, 90, 255), 'G': (40, 120, 60, 255), 'b': (60, 110, 220, 255),
    'B': (30, 60, 140, 255), 's': (250, 205, 160, 255), 'r': (220, 50, 60, 255),
    'R': (140, 20, 30, 255), 'y': (250, 215, 60, 255), 'Y': (190, 140, 20, 255),
    'p': (150, 80, 200, 255), 'P': (90, 40, 130, 255), 'o': (255, 150, 40, 255),
    'd': (110, 85, 60, 255), 'D': (70, 55, 40, 255), 'f': (120, 170, 80, 255),
    'F': (105, 155, 70, 255), 'c': (90, 90, 100, 255), 'C': (60, 60, 70, 255),
}

SPRITES = {
    'player': [
        '......kkkk......', '.....kssssk.....', '....kswkkwsk....', '....kssssssk....',
        '.....kssssk.....', '....kbbbbbbk....', '...kbbbBBbbbk...', '..ksbbbBBbbbsk..',
        '..ksbbbbbbbbsk..', '...kbbbbbbbbk...', '....kBBBBBBk....', '....kBk..kBk....',
        '....kBk..kBk....', '...kkkk..kkkk...', '................', '................'],
    'slime': [
        '................', '................', '................', '......kkkk......',
        '....kkggggkk....', '...kggggggggk...', '..kgggwkgwkgggk.', '..kgggkkgkkgggk.',
        '.kggggggggggggk.', '.kgggggGGgggggk.', '.kggggGGGGggggk.', '.kGggggggggggGk.',
        '..kGGGGGGGGGGk..', '...kkkkkkkkkk...', '................', '................'],
    'bat': [
        '................', '................', 'k..............k', 'kk....k..k....kk',
        'kPk...kkkk...kPk', 'kPPk.kppppk.kPPk', 'kPPPkpwppwpkPPPk', '.kPPPppppppPPPk.',
        '..kPPPprrpPPPk..', '...kkPppppPkk...', '.....kPppPk.....', '......kkkk......',
        '................', '................', '................', '................'],
    'bolt': [
        '................', '................', '................', '................',
        '................', '......oooo......', '.....oyyyyo.....', '....oywwwwyo....',
        '....oywwwwyo....', '.....oyyyyo.....', '......oooo......', '................',
        '................', '................', '................', '................'],
    'coin': [
        '................', '................', '.....kkkkkk.....', '....kyyyyyyk....',
        '...kyyYYYYyyk...', '...kyYyyyyYyk...', '...kyYyYYyYyk...', '...kyYyYYyYyk...',
        '...kyYyYYyYyk...', '...kyYyyyyYyk...', '...kyyYYYYyyk...', '....kyyyyyyk....',
        '.....kkkkkk.....', '................', '................', '................'],
    'heart': [
        '................', '................', '...kkk....kkk...', '..krrrk..krrrk..',
        '.krwrrrkkrrrrrk.', '.krwrrrrrrrrrrk.', '.krrrrrrrrrrrrk.', '.krrrrrrrrrrrRk.',
        '..krrrrrrrrrRk..', '...krrrrrrrRk...', '....krrrrrRk....', '.....krrrRk.....',
        '......krRk......', '.......kk.......', '................', '................'],
    'grass': ['FfffffffFfffffff', 'ffffffffffffffff', 'fffFfffffffffFff', 'ffffffffffffffff',
              'ffffffffFfffffff', 'fFffffffffffffff', 'ffffffffffffFfff', 'ffffffffffffffff',
              'ffffFfffffffffff', 'ffffffffffffffff', 'fffffffffFffffff', 'ffFfffffffffffff',
              'ffffffffffffffFf', 'ffffffffffffffff', 'ffffffFfffffffff', 'ffffffffffffffff'],
    'stone': ['cccccccccccccccc', 'cCcccccccccCcccc', 'cccccccccccccccc', 'ccccccCccccccccc',
              'cccccccccccccccc', 'cccccccccccccCcc', 'ccCccccccccccccc', 'cccccccccccccccc',
              'cccccccCcccccccc', 'cccccccccccccccc', 'cccccccccccccccc', 'cCcccccccccCcccc',
              'cccccccccccccccc', 'cccccCcccccccccc', 'cccccccccccccccc', 'cccccccccccccccc'],
    'wall': ['DDDDDDDDDDDDDDDD', 'DddddddDDdddddddD'[:16], 'DddddddDDddddddd', 'DddddddDDddddddd',
             'DDDDDDDDDDDDDDDD', 'ddddDDdddddddDDd', 'ddddDDdddddddDDd', 'ddddDDdddddddDDd',
             'DDDDDDDDDDDDDDDD', 'DddddddDDddddddd', 'DddddddDDddddddd', 'DddddddDDddddddd',
             'DDDDDDDDDDDDDDDD', 'ddddDDdddddddDDd', 'ddddDDdddddddDDd', 'DDDDDDDDDDDDDDDD'],
    'exit': ['kkkkkkkkkkkkkkkk', 'kbbbbbbbbbbbbbbk', 'kbBBBBBBBBBBBBbk', 'kbBwwwwwwwwwwBbk',
             'kbBwbbbbbbbbwBbk', 'kbBwbBBBBBBbwBbk', 'kbBwbBwwwwBbwBbk', 'kbBwbBwkkwBbwBbk',
             'kbBwbBwkkwBbwBbk', 'kbBwbBwwwwBbwBbk', 'kbBwbBBBBBBbwBbk', 'kbBwbbbbbbbbwBbk',
             'kbBwwwwwwwwwwBbk', 'kbBBBBBBBBBBBBbk', 'kbbbbbbbbbbbbbbk', 'kkkkkkkkkkkkkkkk'],
}


def png_bytes(rows):
    height, width = len(rows), len(rows[0])
    raw = b''.join(b'\x00' + b''.join(bytes(PALETTE[c]) for c in row) for row in rows)
    def chunk(kind, data):
        body = kind + data
        return struct.pack('>I', len(data)) + body + struct.pack('>I', zlib.crc32(body) & 0xFFFFFFFF)
    header = struct.pack('>IIBBBBB', width, height, 8, 6, 0, 0, 0)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(raw, 9)) +
            chunk(b'IEND', b''))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else 'assets/Sprites'
    os.makedirs(out, exist_ok=True)
    for name, rows in sorted(SPRITES.items()):
        assert len(rows) == 16 and all(len(r) == 16 for r in rows), name
        with open(os.path.join(out, name + '.png'), 'wb') as f:
            f.write(png_bytes(rows))


if __name__ == '__main__':
    main()
