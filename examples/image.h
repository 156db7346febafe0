/* image.h - the examples' pictures: a linear RGB float image written as an 8-bit PNG */
#ifndef IMAGE_H
#define IMAGE_H

typedef struct image {
    int w, h;
    float *rgb; /* linear, 0..1 */
} image;

/* 0 on success, -1 when the file cannot be written. */
int image_write_png(const char *path, const image *im);

#endif /* IMAGE_H */
