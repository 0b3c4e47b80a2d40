"""Writes an H.264 stream whose P slices use more reference list entries than its SPS keeps pictures.

ITU-T H.264 lets num_ref_idx_l0_active_minus1 exceed max_num_ref_frames: ref_pic_list_modification may place a
picture in several entries, each with its own explicit weight (x264 does the same for fades with weightp, up
to max_num_ref_frames + 2 entries). Here max_num_ref_frames is 4 and two P slices use 8 entries (each of the
four pictures twice, the second time at half weight plus an offset), which openh264 2.3, sizing its picture
pool as max_num_ref_frames + 2, cannot build. Main profile, CAVLC, 128x96: four I_PCM pictures (an IDR, then
three reference I pictures), the two P pictures, then six P pictures with one entry; every macroblock is
P_L0_16x16 with a zero motion vector and no residual, its reference index cycling through the list.

    usage: h264_repeated_references.py OUT.h264
"""
import sys

class Bits:
    def __init__(self):
        self.bits = []
    def u(self, n, v):
        for i in range(n - 1, -1, -1):
            self.bits.append((v >> i) & 1)
    def ue(self, v):
        v += 1
        n = v.bit_length()
        self.u(n - 1, 0)
        self.u(n, v)
    def se(self, v):
        self.ue(2 * v - 1 if v > 0 else -2 * v)
    def align_zero(self):
        while len(self.bits) % 8:
            self.bits.append(0)
    def trailing(self):
        self.bits.append(1)
        self.align_zero()
    def bytes(self):
        out = bytearray()
        for i in range(0, len(self.bits), 8):
            b = 0
            for bit in self.bits[i:i + 8]:
                b = (b << 1) | bit
            out.append(b)
        return bytes(out)

def nal(ref_idc, kind, payload):
    out = bytearray([(ref_idc << 5) | kind])
    zeros = 0
    for b in payload:
        if zeros >= 2 and b <= 3:
            out.append(3)
            zeros = 0
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return b"\x00\x00\x00\x01" + bytes(out)

W, H = 128, 96
MBW, MBH = W // 16, H // 16
MAX_REFS = 4

def sps():
    b = Bits()
    b.u(8, 77); b.u(8, 0); b.u(8, 30)
    b.ue(0)          # sps id
    b.ue(0)          # log2_max_frame_num_minus4: 16
    b.ue(2)          # pic_order_cnt_type 2: output in decode order
    b.ue(MAX_REFS)   # max_num_ref_frames
    b.u(1, 0)        # gaps
    b.ue(MBW - 1); b.ue(MBH - 1)
    b.u(1, 1)        # frame_mbs_only
    b.u(1, 1)        # direct_8x8_inference
    b.u(1, 0)        # cropping
    b.u(1, 0)        # vui
    b.trailing()
    return nal(3, 7, b.bytes())

def pps():
    b = Bits()
    b.ue(0); b.ue(0)
    b.u(1, 0)        # CAVLC
    b.u(1, 0)        # bottom_field_pic_order_in_frame_present
    b.ue(0)          # slice groups
    b.ue(0); b.ue(0) # default active refs: 1
    b.u(1, 1)        # weighted_pred_flag
    b.u(2, 0)        # weighted_bipred_idc
    b.se(0); b.se(0); b.se(0)
    b.u(1, 1)        # deblocking_filter_control_present
    b.u(1, 0)        # constrained_intra_pred
    b.u(1, 0)        # redundant_pic_cnt_present
    b.trailing()
    return nal(3, 8, b.bytes())

def picture(seed):
    y = [[(x * (3 + seed) + r * (5 - seed) + 40 * seed + ((x // 16 + r // 16 + seed) % 2) * 60) % 256
          for x in range(W)] for r in range(H)]
    cb = [[(64 + 30 * seed + x) % 256 for x in range(W // 2)] for r in range(H // 2)]
    cr = [[(200 - 25 * seed + r * 2) % 256 for x in range(W // 2)] for r in range(H // 2)]
    return y, cb, cr

def i_slice(frame_num, idr, seed):
    b = Bits()
    b.ue(0); b.ue(7); b.ue(0)
    b.u(4, frame_num)
    if idr:
        b.ue(0)              # idr_pic_id
        b.u(1, 0); b.u(1, 0) # no_output_of_prior_pics, long_term_reference
    else:
        b.u(1, 0)            # adaptive_ref_pic_marking_mode
    b.se(0)                  # slice_qp_delta
    b.ue(1)                  # disable_deblocking_filter_idc
    y, cb, cr = picture(seed)
    for mb in range(MBW * MBH):
        mx, my = mb % MBW, mb // MBW
        b.ue(25)             # I_PCM
        b.align_zero()
        for r in range(16):
            for x in range(16):
                b.u(8, y[my * 16 + r][mx * 16 + x])
        for plane in (cb, cr):
            for r in range(8):
                for x in range(8):
                    b.u(8, plane[my * 8 + r][mx * 8 + x])
    b.trailing()
    return nal(3, 5 if idr else 1, b.bytes())

def p_slice(frame_num, commands, weights, ref_of_mb):
    """commands: abs_diff_pic_num_minus1 list (idc 0); weights: list of (weight, offset) or None per entry."""
    b = Bits()
    b.ue(0); b.ue(5); b.ue(0)
    b.u(4, frame_num)
    active = len(weights)
    b.u(1, 1); b.ue(active - 1)
    b.u(1, 1 if commands else 0)
    for diff in commands:
        b.ue(0); b.ue(diff)
    if commands:
        b.ue(3)
    b.ue(5); b.ue(0)        # luma / chroma log2 weight denom
    for w in weights:
        if w is None:
            b.u(1, 0)
        else:
            b.u(1, 1); b.se(w[0]); b.se(w[1])
        b.u(1, 0)           # chroma_weight_l0_flag
    b.u(1, 0)               # adaptive_ref_pic_marking_mode
    b.se(0)
    b.ue(1)
    for mb in range(MBW * MBH):
        b.ue(0)             # mb_skip_run
        b.ue(0)             # P_L0_16x16
        ref = ref_of_mb(mb)
        if active == 2:
            b.u(1, 1 - ref)
        elif active > 2:
            b.ue(ref)
        b.se(0); b.se(0)    # mvd
        b.ue(0)             # coded_block_pattern 0 (inter)
    b.trailing()
    return nal(2, 1, b.bytes())

out = bytearray()
out += sps() + pps()
out += i_slice(0, True, 0)
for k in (1, 2, 3):
    out += i_slice(k, False, k)
# Eight entries from four pictures: each twice (abs_diff_pic_num 16 = MaxPicNum names the same picture again),
# the second time at half weight plus 20.
ENTRIES = 8
modifications = [0, 15] * 4
weights = [None, (16, 20)] * 4
out += p_slice(4, modifications, weights, lambda mb: mb % ENTRIES)
out += p_slice(5, modifications, weights, lambda mb: (mb * 3) % ENTRIES)
for k in range(6, 12):
    out += p_slice(k, [], [None], lambda mb: 0)
open(sys.argv[1], "wb").write(out)
