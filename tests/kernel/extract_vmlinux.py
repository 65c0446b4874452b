#!/usr/bin/env python3
"""Writes the uncompressed ELF kernel inside a bzImage (xz- or gzip-compressed payload) to OUTPUT,
so QEMU can boot it directly (PVH) instead of running the kernel's own decompressor under TCG.

usage: extract_vmlinux.py BZIMAGE OUTPUT     exit 1 when no ELF payload is found
"""
import lzma
import sys
import zlib

DECOMPRESSORS = (
    (b'\xfd7zXZ\x00', lambda data: lzma.LZMADecompressor().decompress(data)),
    (b'\x1f\x8b\x08', lambda data: zlib.decompressobj(31).decompress(data)),
)


def extract(image):
    for magic, decompress in DECOMPRESSORS:
        at = image.find(magic)
        while at >= 0:
            try:
                payload = decompress(image[at:])
            except (lzma.LZMAError, zlib.error):
                payload = b''
            if payload.startswith(b'\x7fELF'):
                return payload
            at = image.find(magic, at + 1)
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], 'rb') as source:
        payload = extract(source.read())
    if payload is None:
        sys.exit(f'{sys.argv[1]}: no compressed ELF kernel found')
    with open(sys.argv[2], 'wb') as output:
        output.write(payload)


if __name__ == '__main__':
    main()
