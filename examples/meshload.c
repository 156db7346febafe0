/* meshload.c - a small triangle-mesh reader for the examples: binary and ASCII STL, OBJ
   (v and f lines, f with v, v/vt, v//vn or v/vt/vn indices, negative ones counting back from
   the last vertex, polygons fanned into triangles), and Terragen heightfields (.ter: two
   triangles per grid cell). Malformed input is an error, never a
   crash: every index and count is checked. */
#include "meshload.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* A growing list of triangles. */
typedef struct tlist {
    float *f[9];
    size_t n, cap;
} tlist;

static int tl_add(tlist *t, const float v[9])
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        for (int k = 0; k < 9; k++) {
            float *p = realloc(t->f[k], cap * sizeof *p);
            if (!p)
                return -1;
            t->f[k] = p;
        }
        t->cap = cap;
    }
    for (int k = 0; k < 9; k++)
        t->f[k][t->n] = v[k];
    t->n++;
    return 0;
}

static void tl_free(tlist *t)
{
    for (int k = 0; k < 9; k++)
        free(t->f[k]);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            char *p = realloc(buf, cap);
            if (!p) {
                free(buf);
                fclose(fp);
                return NULL;
            }
            buf = p;
        }
        size_t got = fread(buf + n, 1, 4096, fp);
        n += got;
        if (got < 4096)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static int load_stl_binary(const char *buf, size_t len, tlist *t, char *err, size_t errlen)
{
    uint32_t n;
    memcpy(&n, buf + 80, 4);
    for (size_t i = 0; i < n; i++) {
        const char *rec = buf + 84 + 50 * i + 12; /* past the facet normal */
        float v[9];
        memcpy(v, rec, sizeof v);
        if (tl_add(t, v))
            return fail(err, errlen, "out of memory");
    }
    (void)len;
    return 0;
}

/* ASCII STL: every "vertex x y z", three per facet. */
static int load_stl_ascii(char *buf, tlist *t, char *err, size_t errlen)
{
    float v[9];
    int k = 0;
    for (char *p = strstr(buf, "vertex"); p; p = strstr(p, "vertex")) {
        p += 6;
        char *end;
        for (int c = 0; c < 3; c++) {
            v[3 * k + c] = strtof(p, &end);
            if (end == p)
                return fail(err, errlen, "ASCII STL: a vertex without three numbers");
            p = end;
        }
        if (++k == 3) {
            if (tl_add(t, v))
                return fail(err, errlen, "out of memory");
            k = 0;
        }
    }
    if (k != 0)
        return fail(err, errlen, "ASCII STL: a facet with %d vertices", k);
    return 0;
}

/* One OBJ vertex reference ("7", "7/2", "7//3", "-1/...") -> a 0-based index, or -1. */
static long obj_index(const char *tok, size_t nv)
{
    char *end;
    long i = strtol(tok, &end, 10);
    if (end == tok || (*end != '\0' && *end != '/'))
        return -1;
    if (i < 0)
        i = (long)nv + i; /* -1: the last vertex so far */
    else
        i -= 1;
    return i >= 0 && (size_t)i < nv ? i : -1;
}

static int load_obj(char *buf, tlist *t, char *err, size_t errlen)
{
    float *v = NULL;
    size_t nv = 0, cap = 0, line = 0;
    int rc = 0;
    for (char *s = buf; s && *s && rc == 0; line++) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        char *cr = strchr(s, '\r');
        if (cr)
            *cr = '\0';
        while (*s == ' ' || *s == '\t')
            s++;
        if (s[0] == 'v' && (s[1] == ' ' || s[1] == '\t')) {
            if (nv == cap) {
                cap = cap ? 2 * cap : 1024;
                float *p = realloc(v, 3 * cap * sizeof *p);
                if (!p) {
                    rc = fail(err, errlen, "out of memory");
                    break;
                }
                v = p;
            }
            char *p = s + 2, *end;
            for (int c = 0; c < 3; c++) {
                v[3 * nv + c] = strtof(p, &end);
                if (end == p)
                    rc = fail(err, errlen, "OBJ line %zu: a vertex without three numbers",
                              line + 1);
                p = end;
            }
            nv++;
        } else if (s[0] == 'f' && (s[1] == ' ' || s[1] == '\t')) {
            long first = -1, prev = -1;
            int count = 0;
            for (char *tok = strtok(s + 2, " \t"); tok && rc == 0; tok = strtok(NULL, " \t")) {
                long i = obj_index(tok, nv);
                if (i < 0) {
                    rc = fail(err, errlen, "OBJ line %zu: bad vertex reference '%s'", line + 1,
                              tok);
                    break;
                }
                if (count == 0)
                    first = i;
                else if (count >= 2) { /* a fan from the first vertex */
                    float tri[9];
                    const long ids[3] = {first, prev, i};
                    for (int j = 0; j < 3; j++)
                        for (int c = 0; c < 3; c++)
                            tri[3 * j + c] = v[3 * ids[j] + c];
                    if (tl_add(t, tri))
                        rc = fail(err, errlen, "out of memory");
                }
                prev = i;
                count++;
            }
            if (rc == 0 && count < 3)
                rc = fail(err, errlen, "OBJ line %zu: a face of %d vertices", line + 1, count);
        }
        s = nl ? nl + 1 : NULL;
    }
    free(v);
    return rc;
}

/* Terragen (.ter): "TERRAGENTERRAIN " then chunks - SIZE, XPTS, YPTS (a 16-bit count and
   2 bytes of padding), SCAL (three floats: metres per unit along x, y, z), CRAD (a float),
   CRVM (4 bytes), and ALTW: a 16-bit height scale and base, then XPTS x YPTS 16-bit
   elevations, row by row; height = (base + elevation * scale / 65536) * SCAL z. Little
   endian, as the format is. Each grid cell gives two triangles, in metres. */
static int16_t ter_i16(const unsigned char *p) { return (int16_t)(p[0] | p[1] << 8); }

static int load_ter(const char *buf, size_t len, tlist *t, char *err, size_t errlen)
{
    const unsigned char *b = (const unsigned char *)buf;
    size_t at = 16;
    int size = 0, nx = 0, ny = 0;
    float scal[3] = {30, 30, 30};
    while (at + 4 <= len) {
        const char *tag = buf + at;
        at += 4;
        if (!memcmp(tag, "EOF ", 4))
            break;
        if (!memcmp(tag, "SIZE", 4) || !memcmp(tag, "XPTS", 4) || !memcmp(tag, "YPTS", 4)) {
            if (at + 4 > len)
                break;
            int v = ter_i16(b + at);
            if (!memcmp(tag, "SIZE", 4))
                size = v;
            else if (!memcmp(tag, "XPTS", 4))
                nx = v;
            else
                ny = v;
            at += 4;
        } else if (!memcmp(tag, "SCAL", 4)) {
            if (at + 12 > len)
                break;
            memcpy(scal, buf + at, sizeof scal);
            at += 12;
        } else if (!memcmp(tag, "CRAD", 4) || !memcmp(tag, "CRVM", 4)) {
            at += 4;
        } else if (!memcmp(tag, "ALTW", 4)) {
            if (nx == 0)
                nx = ny = size + 1;
            if (nx < 2 || ny < 2 || at + 4 + 2 * (size_t)nx * (size_t)ny > len)
                return fail(err, errlen, "Terragen: %d x %d points do not fit the file", nx,
                            ny);
            float hs = (float)ter_i16(b + at), base = (float)ter_i16(b + at + 2);
            const unsigned char *e = b + at + 4;
            for (int y = 0; y + 1 < ny; y++)
                for (int x = 0; x + 1 < nx; x++) {
                    float h[4];
                    for (int k = 0; k < 4; k++) {
                        size_t i = (size_t)(y + (k >> 1)) * (size_t)nx + (size_t)(x + (k & 1));
                        h[k] = (base + (float)ter_i16(e + 2 * i) * hs / 65536.0f) * scal[2];
                    }
                    float x0 = (float)x * scal[0], x1 = (float)(x + 1) * scal[0];
                    float y0 = (float)y * scal[1], y1 = (float)(y + 1) * scal[1];
                    const float a[9] = {x0, y0, h[0], x1, y0, h[1], x1, y1, h[3]};
                    const float c[9] = {x0, y0, h[0], x1, y1, h[3], x0, y1, h[2]};
                    if (tl_add(t, a) || tl_add(t, c))
                        return fail(err, errlen, "out of memory");
                }
            return 0;
        } else {
            return fail(err, errlen, "Terragen: unknown chunk %.4s", tag);
        }
    }
    return fail(err, errlen, "Terragen: no ALTW chunk");
}

int mesh_load(const char *path, float *tri[9], size_t *ntris, char *err, size_t errlen)
{
    size_t len = 0;
    char *buf = read_file(path, &len);
    if (!buf)
        return fail(err, errlen, "cannot read %s", path);
    tlist t = {{0}, 0, 0};
    int rc;
    uint32_t n = 0;
    if (len >= 84)
        memcpy(&n, buf + 80, 4);
    const char *dot = strrchr(path, '.');
    if (len >= 84 && (size_t)n * 50 + 84 == len)
        rc = load_stl_binary(buf, len, &t, err, errlen);
    else if (len >= 5 && strncmp(buf, "solid", 5) == 0)
        rc = load_stl_ascii(buf, &t, err, errlen);
    else if (dot && (strcmp(dot, ".obj") == 0 || strcmp(dot, ".OBJ") == 0))
        rc = load_obj(buf, &t, err, errlen);
    else if (len >= 16 && memcmp(buf, "TERRAGENTERRAIN ", 16) == 0)
        rc = load_ter(buf, len, &t, err, errlen);
    else
        rc = fail(err, errlen, "%s: neither STL, OBJ nor Terragen", path);
    free(buf);
    if (rc == 0 && t.n == 0)
        rc = fail(err, errlen, "%s holds no triangle", path);
    if (rc) {
        tl_free(&t);
        return -1;
    }
    for (int k = 0; k < 9; k++)
        tri[k] = t.f[k];
    *ntris = t.n;
    return 0;
}
