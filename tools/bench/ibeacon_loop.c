/*
 * The reference loop `make bench` measures beacon against: the least work that turns a btsnoop capture
 * into per-beacon statistics. It maps the capture, walks its records, finds the iBeacon in each LE
 * Advertising Report and LE Extended Advertising Report (whole reports only: fragments of a chain are
 * skipped as beacon skips them), keeps those of the region's UUID (all with no --uuid) and aggregates
 * them per identity: count, RSSI sum, last time heard. Every length is checked against the bytes that
 * are there; a capture that ends inside a record is an error (exit 65), a malformed event ends that
 * event only.
 *
 *   ibeacon_loop FILE [--uuid UUID] [--counts]
 *
 * Prints one summary line; with --counts, then one line per identity: UUID MAJOR MINOR COUNT, sorted.
 * Build: cc -O2 -o ibeacon_loop ibeacon_loop.c
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { EXIT_USAGE = 64, EXIT_DATA = 65, EXIT_NOINPUT = 66 };

/* One beacon identity and what was aggregated for it. */
struct entry {
    uint8_t key[20]; /* UUID, major, minor as advertised (big-endian) */
    uint8_t used;
    uint64_t count;
    int64_t rssi_sum;
    uint64_t rssi_count;
    int64_t last_seen;
};

static struct entry *table;
static size_t capacity = 1024, filled;

static uint64_t hash_key(const uint8_t *key) {
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (int i = 0; i < 20; i++) h = (h ^ key[i]) * 1099511628211ull;
    return h;
}

static struct entry *slot_for(struct entry *entries, size_t size, const uint8_t *key) {
    size_t i = hash_key(key) & (size - 1);
    while (entries[i].used && memcmp(entries[i].key, key, 20) != 0) i = (i + 1) & (size - 1);
    return &entries[i];
}

static void grow(void) {
    size_t size = capacity * 2;
    struct entry *entries = calloc(size, sizeof *entries);
    if (!entries) { perror("calloc"); exit(70); }
    for (size_t i = 0; i < capacity; i++)
        if (table[i].used) *slot_for(entries, size, table[i].key) = table[i];
    free(table);
    table = entries;
    capacity = size;
}

static void aggregate(const uint8_t *key, int8_t rssi, int64_t time) {
    if ((filled + 1) * 10 > capacity * 7) grow();
    struct entry *e = slot_for(table, capacity, key);
    if (!e->used) {
        memcpy(e->key, key, 20);
        e->used = 1;
        filled++;
    }
    e->count++;
    if (rssi >= -127 && rssi <= 20) { /* 127 and other values no controller measures: no reading */
        e->rssi_sum += rssi;
        e->rssi_count++;
    }
    e->last_seen = time;
}

/* Open fragment chains of extended reports: advertiser address, address type and SID. */
struct chain { uint8_t address[6], type, sid; };
static struct chain chains[1024];
static size_t open_chains;

static int chain_index(const uint8_t *address, uint8_t type, uint8_t sid) {
    for (size_t i = 0; i < open_chains; i++)
        if (chains[i].type == type && chains[i].sid == sid && memcmp(chains[i].address, address, 6) == 0) return (int)i;
    return -1;
}

static void chain_remove(int i) { chains[i] = chains[--open_chains]; }

/* Whether an extended report with this data status (bits 5-6 of its event type) is a whole advertisement. */
static int whole(const uint8_t *address, uint8_t type, uint8_t sid, unsigned status) {
    int i = chain_index(address, type, sid);
    switch (status) {
    case 1: /* incomplete, more to come */
        if (open_chains == sizeof chains / sizeof chains[0]) open_chains = 0;
        if (i < 0) {
            memcpy(chains[open_chains].address, address, 6);
            chains[open_chains].type = type;
            chains[open_chains].sid = sid;
            open_chains++;
        }
        return 0;
    case 0: /* complete: whole unless it ends a chain */
        if (i < 0) return 1;
        chain_remove(i);
        return 0;
    default: /* truncated or reserved */
        if (i >= 0) chain_remove(i);
        return 0;
    }
}

static uint8_t region[16];
static int has_region;
static uint64_t reports, ibeacons, matched;

/* The first iBeacon in advertising data, aggregated when it is in the region. */
static void advertising_data(const uint8_t *data, size_t length, int8_t rssi, int64_t time) {
    size_t i = 0;
    while (i < length) {
        size_t len = data[i];
        if (len == 0) return;                /* padding */
        if (len > length - i - 1) return;    /* runs past the data: malformed, nothing after it counts */
        const uint8_t *value = data + i + 2;
        size_t value_length = len - 1;
        if (data[i + 1] == 0xFF && value_length >= 25 && value[0] == 0x4C && value[1] == 0x00 && value[2] == 0x02
            && value[3] == 0x15) {
            ibeacons++;
            if (!has_region || memcmp(value + 4, region, 16) == 0) {
                matched++;
                aggregate(value + 4, rssi, time);
            }
            return;
        }
        i += 1 + len;
    }
}

/* LE Advertising Report parameters after the subevent code. */
static void legacy_reports(const uint8_t *p, size_t n, int64_t time) {
    if (n < 1) return;
    unsigned count = p[0];
    size_t at = 1;
    for (unsigned r = 0; r < count; r++) {
        if (n - at < 9) return; /* event type, address type, address, data length */
        size_t length = p[at + 8];
        if (n - at - 9 < length + 1) return; /* data and RSSI */
        reports++;
        advertising_data(p + at + 9, length, (int8_t)p[at + 9 + length], time);
        at += 9 + length + 1;
    }
}

/* LE Extended Advertising Report parameters after the subevent code. */
static void extended_reports(const uint8_t *p, size_t n, int64_t time) {
    if (n < 1) return;
    unsigned count = p[0];
    size_t at = 1;
    for (unsigned r = 0; r < count; r++) {
        if (n - at < 24) return;
        const uint8_t *report = p + at;
        size_t length = report[23];
        if (n - at - 24 < length) return;
        reports++;
        unsigned status = (report[0] >> 5) & 3;
        if (whole(report + 3, report[2], report[11], status))
            advertising_data(report + 24, length, (int8_t)report[13], time);
        at += 24 + length;
    }
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

static int parse_uuid(const char *text, uint8_t *out) {
    int k = 0;
    for (const char *c = text; *c; c++) {
        if (*c == '-') continue;
        int v = (*c >= '0' && *c <= '9') ? *c - '0' : (*c >= 'a' && *c <= 'f') ? *c - 'a' + 10
              : (*c >= 'A' && *c <= 'F') ? *c - 'A' + 10 : -1;
        if (v < 0 || k == 32) return -1;
        if (k % 2 == 0) out[k / 2] = (uint8_t)(v << 4); else out[k / 2] |= (uint8_t)v;
        k++;
    }
    return k == 32 ? 0 : -1;
}

static int compare_entries(const void *a, const void *b) {
    return memcmp(((const struct entry *)a)->key, ((const struct entry *)b)->key, 20);
}

int main(int argc, char **argv) {
    const char *path = NULL;
    int counts = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--uuid") == 0 && i + 1 < argc) {
            if (parse_uuid(argv[++i], region) != 0) { fprintf(stderr, "ibeacon_loop: bad UUID %s\n", argv[i]); return EXIT_USAGE; }
            has_region = 1;
        } else if (strcmp(argv[i], "--counts") == 0) {
            counts = 1;
        } else if (!path && argv[i][0] != '-') {
            path = argv[i];
        } else {
            fprintf(stderr, "usage: ibeacon_loop FILE [--uuid UUID] [--counts]\n");
            return EXIT_USAGE;
        }
    }
    if (!path) { fprintf(stderr, "usage: ibeacon_loop FILE [--uuid UUID] [--counts]\n"); return EXIT_USAGE; }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0) { fprintf(stderr, "ibeacon_loop: %s: %s\n", path, strerror(errno)); return EXIT_NOINPUT; }
    size_t size = (size_t)info.st_size;
    if (size < 16) { fprintf(stderr, "ibeacon_loop: %s: no btsnoop header\n", path); return EXIT_DATA; }
    const uint8_t *file = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (file == MAP_FAILED) { perror("mmap"); return EXIT_NOINPUT; }
    madvise((void *)file, size, MADV_SEQUENTIAL);
    if (memcmp(file, "btsnoop\0", 8) != 0 || be32(file + 8) != 1 || be32(file + 12) != 1002) {
        fprintf(stderr, "ibeacon_loop: %s: not a btsnoop version 1 capture of datalink 1002 (H4)\n", path);
        return EXIT_DATA;
    }
    table = calloc(capacity, sizeof *table);
    if (!table) { perror("calloc"); return 70; }
    size_t at = 16;
    uint64_t records = 0;
    while (at < size) {
        if (size - at < 24) { fprintf(stderr, "ibeacon_loop: %s: a record header is cut short at offset %zu\n", path, at); return EXIT_DATA; }
        const uint8_t *header = file + at;
        size_t included = be32(header + 4);
        if (included > size - at - 24) { fprintf(stderr, "ibeacon_loop: %s: a record is cut short at offset %zu\n", path, at); return EXIT_DATA; }
        const uint8_t *packet = header + 24;
        int64_t time = (int64_t)((uint64_t)be32(header + 16) << 32 | be32(header + 20));
        records++;
        at += 24 + included;
        /* H4 event: indicator, code, parameter length, parameters; the declared part only. */
        if (included < 4 || packet[0] != 0x04 || packet[1] != 0x3E) continue;
        size_t length = packet[2];
        if (length > included - 3 || length < 1) continue;
        const uint8_t *parameters = packet + 4;
        if (packet[3] == 0x02) legacy_reports(parameters, length - 1, time);
        else if (packet[3] == 0x0D) extended_reports(parameters, length - 1, time);
    }
    printf("records=%llu reports=%llu ibeacons=%llu matched=%llu identities=%zu\n", (unsigned long long)records,
           (unsigned long long)reports, (unsigned long long)ibeacons, (unsigned long long)matched, filled);
    if (counts) {
        struct entry *list = malloc((filled + 1) * sizeof *list);
        size_t k = 0;
        for (size_t i = 0; i < capacity; i++) if (table[i].used) list[k++] = table[i];
        qsort(list, k, sizeof *list, compare_entries);
        for (size_t i = 0; i < k; i++) {
            const uint8_t *u = list[i].key;
            printf("%02X%02X%02X%02X-%02X%02X-%02X%02X-%02X%02X-%02X%02X%02X%02X%02X%02X %u %u %llu\n",
                   u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15],
                   (unsigned)(u[16] << 8 | u[17]), (unsigned)(u[18] << 8 | u[19]), (unsigned long long)list[i].count);
        }
        free(list);
    }
    return 0;
}
