#!/usr/bin/env python3
"""Where `thumbs --fit fill --crop smart` puts a square window, beside `vips smartcrop --interesting attention`.

For each movie: the upright picture at most 480 px (`thumbs thumbnail --max-size 480`), then the square of its shorter
side kept by thumbs (`--max-size SxS --fit fill --crop smart`: the same picture, cut) and by vips from that picture;
each window found in the picture by matching, and the distance between the two along the side that is cut.

Usage: Benchmarks/harness/subject-crop.py --thumbs PATH MOVIE... (needs vips, Debian's libvips-tools)
"""
import argparse
import os
import struct
import subprocess
import tempfile
import zlib


def png(path):
    """A PNG file (8-bit RGB or RGBA, not interlaced) as (width, height, bytes a pixel, rows)."""
    d=open(path,'rb').read(); pos=8; idat=b''; w=h=0; ct=0
    while pos < len(d):
        n,=struct.unpack('>I',d[pos:pos+4]); t=d[pos+4:pos+8]; body=d[pos+8:pos+8+n]; pos+=12+n
        if t==b'IHDR': w,h,bd,ct=struct.unpack('>IIBB',body[:10])
        elif t==b'IDAT': idat+=body
    bpp={2:3,6:4}[ct]; raw=zlib.decompress(idat); stride=w*bpp; out=[]; prev=bytearray(stride); i=0
    for y in range(h):
        f=raw[i]; line=bytearray(raw[i+1:i+1+stride]); i+=1+stride
        for x in range(stride):
            a=line[x-bpp] if x>=bpp else 0; b=prev[x]; c=prev[x-bpp] if x>=bpp else 0
            if f==1: line[x]=(line[x]+a)&255
            elif f==2: line[x]=(line[x]+b)&255
            elif f==3: line[x]=(line[x]+(a+b)//2)&255
            elif f==4:
                p=a+b-c; pa,pb,pc=abs(p-a),abs(p-b),abs(p-c)
                line[x]=(line[x]+(a if pa<=pb and pa<=pc else b if pb<=pc else c))&255
        out.append(bytes(line)); prev=line
    return w,h,bpp,out


def offset(whole, part):
    """Where `part` lies in `whole` (its top-left corner), by the least difference over three of its rows."""
    W,H,bw,wr=whole; w,h,bp,pr=part
    best=None
    for oy in range(H-h+1):
        for ox in range(W-w+1):
            err=0
            for yy in (0,h//2,h-1):
                a=wr[oy+yy][ox*bw:(ox+w)*bw]; b=pr[yy][:w*bp]
                if bw!=bp: a=bytes(v for k,v in enumerate(a) if k%bw<3); b=bytes(v for k,v in enumerate(b) if k%bp<3)
                err+=sum(abs(p-q) for p,q in zip(a,b))
            if best is None or err<best[0]: best=(err,ox,oy)
    return best[1],best[2]
ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument('--thumbs', required=True)
ap.add_argument('movies', nargs='+')
args = ap.parse_args()
folder = tempfile.mkdtemp()
whole_png, ours_png, vips_png = (os.path.join(folder, name) for name in ('whole.png', 'ours.png', 'vips.png'))
near = 0
for movie in args.movies:
    subprocess.run([args.thumbs, 'thumbnail', movie, '--max-size', '480', '-o', whole_png], capture_output=True, check=True)
    whole = png(whole_png)
    W, H = whole[0], whole[1]
    S = min(W, H)
    subprocess.run([args.thumbs, 'thumbnail', movie, '--max-size', f'{S}x{S}', '--fit', 'fill', '--crop', 'smart', '-o', ours_png],
                   capture_output=True, check=True)
    subprocess.run(['vips', 'smartcrop', whole_png, vips_png, str(S), str(S), '--interesting', 'attention'],
                   capture_output=True, check=True)
    o, v = offset(whole, png(ours_png)), offset(whole, png(vips_png))
    apart = max(abs(o[0] - v[0]), abs(o[1] - v[1]))
    cell = max(W, H) / 32
    near += apart <= cell
    print(f"| `{os.path.basename(movie)}` | {W}x{H} | {S} | {o} | {v} | {((W - S) // 2, (H - S) // 2)} | {apart} of {max(W, H) - S} |")
print(f"{near} of {len(args.movies)} within one grid cell ({'1/32 of the longer side'})")
