/*
 * A controller for make bench's live path: listens on a unix socket, answers every HCI command the
 * host sends with a successful Command Complete (Read Local Supported Commands: legacy and extended LE
 * scanning and advertising; Read Local Version Information: Bluetooth 5.3), and once scanning is
 * enabled and "go" has arrived on stdin, streams the LE advertising report events of a btsnoop capture
 * (datalink 1002) as fast as the host reads them. Command answers go out between whole events.
 *
 *   fake_controller SOCKET CAPTURE
 *
 * Prints, one line each, flushed: "LISTENING unix:SOCKET", "SCANNING" when the host enabled scanning,
 * and "STREAMED events=N reports=N bytes=N" once the host has read the whole stream (nothing left in
 * the socket). Exits when the host closes the connection.
 * Build: cc -O2 -o fake_controller fake_controller.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sockios.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static uint8_t *stream;
static size_t stream_length, stream_at, chunk_end;
static uint64_t stream_events, stream_reports;

static uint8_t outbox[65536];
static size_t outbox_length;

static int scanning, go, streamed_reported;

static void fail(const char *what) { perror(what); exit(1); }

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* The capture's LE Advertising Report and LE Extended Advertising Report events, back to back. */
static void load(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0) fail(path);
    size_t size = (size_t)info.st_size;
    if (size < 16) { fprintf(stderr, "%s: no btsnoop header\n", path); exit(65); }
    const uint8_t *file = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (file == MAP_FAILED) fail("mmap");
    if (memcmp(file, "btsnoop\0", 8) != 0 || be32(file + 12) != 1002) { fprintf(stderr, "%s: not btsnoop H4\n", path); exit(65); }
    stream = malloc(size);
    if (!stream) fail("malloc");
    size_t at = 16;
    while (size - at >= 24) {
        size_t included = be32(file + at + 4);
        if (included > size - at - 24) break;
        const uint8_t *packet = file + at + 24;
        at += 24 + included;
        if (included < 5 || packet[0] != 0x04 || packet[1] != 0x3E || (packet[3] != 0x02 && packet[3] != 0x0D)) continue;
        if ((size_t)packet[2] + 3 != included) continue;
        memcpy(stream + stream_length, packet, included);
        stream_length += included;
        stream_events++;
        stream_reports += packet[4];
    }
    munmap((void *)file, size);
    close(fd);
}

static void answer(uint16_t opcode, const uint8_t *parameters, size_t length) {
    uint8_t returns[70] = {0};
    size_t count = 1; /* status: success */
    if (opcode == 0x1002) { /* Read_Local_Supported_Commands */
        static const uint8_t bits[][2] = {{5, 6}, {5, 7}, {14, 3}, {25, 0}, {25, 5}, {25, 6}, {25, 7}, {26, 1}, {26, 2},
                                          {26, 3}, {36, 2}, {36, 3}, {36, 5}, {37, 0}, {37, 5}, {37, 6}};
        for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) returns[1 + bits[i][0]] |= (uint8_t)(1 << bits[i][1]);
        count += 64;
    } else if (opcode == 0x1001) { /* Read_Local_Version_Information: 5.3 */
        const uint8_t version[] = {0x0C, 0, 0, 0x0C, 0xFF, 0xFF, 0, 0};
        memcpy(returns + 1, version, sizeof version);
        count += sizeof version;
    } else if (opcode == 0x2007 || opcode == 0x2036) { /* a TX power */
        count += 1;
    }
    if ((opcode == 0x200C || opcode == 0x2042) && length >= 1) {
        scanning = parameters[0] == 1;
        if (scanning) { printf("SCANNING\n"); fflush(stdout); }
    }
    if (outbox_length + 6 + count > sizeof outbox) { fprintf(stderr, "fake_controller: too many commands at once\n"); exit(1); }
    uint8_t *e = outbox + outbox_length;
    e[0] = 0x04; e[1] = 0x0E; e[2] = (uint8_t)(3 + count); e[3] = 1; e[4] = opcode & 0xFF; e[5] = opcode >> 8;
    memcpy(e + 6, returns, count);
    outbox_length += 6 + count;
}

/* Commands in `input`; returns how many bytes were whole commands. */
static size_t commands(const uint8_t *input, size_t length) {
    size_t at = 0;
    while (length - at >= 4) {
        if (input[at] != 0x01) { fprintf(stderr, "fake_controller: not a command packet: 0x%02X\n", input[at]); exit(1); }
        size_t parameters = input[at + 3];
        if (length - at - 4 < parameters) break;
        answer((uint16_t)(input[at + 1] | input[at + 2] << 8), input + at + 4, parameters);
        at += 4 + parameters;
    }
    return at;
}

/* The end of the next run of whole events, at most about 64 KiB from `from`. */
static size_t next_chunk_end(size_t from) {
    size_t end = from;
    while (end < stream_length && end - from < 65536) end += 3 + (size_t)stream[end + 2];
    return end;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: fake_controller SOCKET CAPTURE\n"); return 64; }
    signal(SIGPIPE, SIG_IGN);
    load(argv[2]);
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(argv[1]) >= sizeof address.sun_path) { fprintf(stderr, "socket path too long\n"); return 64; }
    strcpy(address.sun_path, argv[1]);
    unlink(argv[1]);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0) fail("listen");
    printf("LISTENING unix:%s\n", argv[1]);
    fflush(stdout);
    int host = accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (host < 0) fail("accept");
    uint8_t input[4096];
    size_t input_length = 0;
    int stdin_open = 1;
    for (;;) {
        int streaming = scanning && go && stream_at < stream_length;
        struct pollfd fds[2] = {
            {.fd = host, .events = POLLIN | ((outbox_length || streaming) ? POLLOUT : 0)},
            {.fd = stdin_open ? 0 : -1, .events = POLLIN},
        };
        int waiting = scanning && go && stream_at == stream_length && !streamed_reported;
        if (poll(fds, 2, waiting ? 5 : -1) < 0) {
            if (errno == EINTR) continue;
            fail("poll");
        }
        if (fds[1].revents) {
            char line[64];
            ssize_t n = read(0, line, sizeof line);
            if (n <= 0) stdin_open = 0;
            else if (n >= 2 && memcmp(line, "go", 2) == 0) go = 1;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n = read(host, input + input_length, sizeof input - input_length);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) break; /* the host closed */
            if (n > 0) {
                input_length += (size_t)n;
                size_t used = commands(input, input_length);
                memmove(input, input + used, input_length - used);
                input_length -= used;
            }
        }
        if (fds[0].revents & POLLOUT) {
            /* Finish the run of events under way, then answers, then the next run. */
            if (stream_at == chunk_end && outbox_length) {
                ssize_t n = write(host, outbox, outbox_length);
                if (n > 0) { memmove(outbox, outbox + n, outbox_length - (size_t)n); outbox_length -= (size_t)n; }
            } else if (scanning && go && stream_at < stream_length) {
                if (stream_at == chunk_end) chunk_end = next_chunk_end(stream_at);
                ssize_t n = write(host, stream + stream_at, chunk_end - stream_at);
                if (n > 0) stream_at += (size_t)n;
            }
        }
        if (waiting) {
            int unread = 0;
            if (ioctl(host, SIOCOUTQ, &unread) == 0 && unread == 0) {
                printf("STREAMED events=%llu reports=%llu bytes=%zu\n", (unsigned long long)stream_events,
                       (unsigned long long)stream_reports, stream_length);
                fflush(stdout);
                streamed_reported = 1;
            }
        }
    }
    close(host);
    unlink(argv[1]);
    return 0;
}
