/* A Caravan bot in C for the cardtable bot protocol (docs/bots.md): a random legal move.
 *
 * Build: cc -O2 -o caravan_random examples/bots/caravan_random.c
 * Play:  caravan -b "exec:./caravan_random"
 *
 * The table sends one JSON object per line; this bot needs no JSON library: it only looks
 * for the message type and the "legal" list of move strings (moves never hold quotes).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int is_type(const char *line, const char *type) {
    char wanted[64];
    snprintf(wanted, sizeof wanted, "\"type\":\"%s\"", type);
    return strstr(line, wanted) != NULL;
}

/* Copies the n-th string of the "legal" list into move; returns how many the list holds. */
static int legal_move(const char *line, int n, char *move, size_t size) {
    const char *p = strstr(line, "\"legal\":[");
    int count = 0;
    if (p == NULL) return 0;
    p += strlen("\"legal\":[");
    while (*p && *p != ']') {
        const char *start, *end;
        if (*p != '"') { p++; continue; }
        start = p + 1;
        end = strchr(start, '"');
        if (end == NULL) break;
        if (count == n && move != NULL) {
            size_t length = (size_t)(end - start);
            if (length >= size) length = size - 1;
            memcpy(move, start, length);
            move[length] = '\0';
        }
        count++;
        p = end + 1;
    }
    return count;
}

int main(int argc, char **argv) {
    char *line = NULL;
    size_t capacity = 0;
    char move[64];
    srand(argc > 1 ? (unsigned)atoi(argv[1]) : (unsigned)time(NULL));
    while (getline(&line, &capacity, stdin) != -1) {
        if (is_type(line, "hello")) {
            printf("{\"type\":\"ready\",\"name\":\"caravan-random.c\",\"game\":\"caravan\"}\n");
        } else if (is_type(line, "turn")) {
            int count = legal_move(line, 0, NULL, 0);
            if (count == 0) return 1;
            legal_move(line, rand() % count, move, sizeof move);
            printf("{\"type\":\"move\",\"move\":\"%s\"}\n", move);
        } else if (is_type(line, "quit")) {
            break;
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
