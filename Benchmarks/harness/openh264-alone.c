/* Peak memory of openh264 alone decoding one H.264 access unit (Annex B), with nothing else in the process:
 * what a thumbnailer built on openh264 cannot go below.
 *
 *   ffmpeg -i movie.mp4 -c:v copy -bsf:v h264_mp4toannexb -frames:v 1 -an -f h264 key.h264
 *   cc -O2 Benchmarks/harness/openh264-alone.c -o /tmp/openh264-alone -lopenh264 && /tmp/openh264-alone key.h264
 *
 * Prints the process's peak resident memory (getrusage) before the decoder is made, after it is initialised (error
 * concealment off, as FrameDecode sets it) and after the picture is decoded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <wels/codec_api.h>

static long peak_kib(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s access-unit.h264\n", argv[0]);
        return 64;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 66;
    }
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc(length > 0 ? (size_t)length : 1);
    if (!bytes || fread(bytes, 1, (size_t)length, file) != (size_t)length) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 66;
    }
    fclose(file);
    printf("before the decoder: %ld KiB\n", peak_kib());

    ISVCDecoder *decoder = NULL;
    if (WelsCreateDecoder(&decoder) != 0 || !decoder) {
        fprintf(stderr, "WelsCreateDecoder failed\n");
        return 70;
    }
    SDecodingParam parameters;
    memset(&parameters, 0, sizeof parameters);
    parameters.eEcActiveIdc = ERROR_CON_DISABLE;
    parameters.sVideoProperty.eVideoBsType = VIDEO_BITSTREAM_AVC;
    (*decoder)->Initialize(decoder, &parameters);
    printf("initialised: %ld KiB\n", peak_kib());

    unsigned char *planes[3] = {NULL, NULL, NULL};
    SBufferInfo info;
    memset(&info, 0, sizeof info);
    int result = (*decoder)->DecodeFrameNoDelay(decoder, bytes, (int)length, planes, &info);
    printf("decoded: status %d, picture %s, %dx%d; peak %ld KiB\n", result, info.iBufferStatus == 1 ? "out" : "none",
           info.UsrData.sSystemBuffer.iWidth, info.UsrData.sSystemBuffer.iHeight, peak_kib());
    (*decoder)->Uninitialize(decoder);
    WelsDestroyDecoder(decoder);
    free(bytes);
    return result == 0 && info.iBufferStatus == 1 ? 0 : 1;
}
