/* The source tree listed and lstat'ed ahead of the scan's walk (gen/content/content_tree.c):
 * the walk's order and folders, hidden entries and links as the walk treats them, each entry's
 * lstat or its errno, and the same tree for any number of threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/content_tree.h"

static char root[64];

static void make_file(const char *rel, size_t size)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < size; i++) fputc('x', f);
    fclose(f);
}

static void make_folder(const char *rel)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    assert_int_equal(mkdir(path, 0777), 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/tl-tree-XXXXXX");
    if (!mkdtemp(root)) return -1;
    make_file("b.txt", 2);
    make_file("a.txt", 1);
    make_file(".hidden", 3);
    make_folder("empty");
    make_folder("sub");
    make_file("sub/x.bin", 5);
    make_folder("sub/.git");
    make_file("sub/.git/HEAD", 4);
    char target[256], link[256];
    snprintf(target, sizeof target, "%s/sub", root);
    snprintf(link, sizeof link, "%s/link", root);
    assert_int_equal(symlink(target, link), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *name_of(const tree_entry *e) { return e->full + e->name; }

static void read_root(unsigned jobs, content_tree *t)
{
    struct stat st;
    assert_int_equal(stat(root, &st), 0);
    content_tree_read(root, &st, jobs, t);
}

/* Sorted names, hidden ones left out, plain folders listed, the folder behind a link not. */
static void test_tree_shape(void **state)
{
    (void)state;
    content_tree t;
    read_root(2, &t);
    assert_int_equal(t.folders.count, 3); /* the root, empty, sub */
    const tree_folder *top = &t.folders.items[0];
    assert_int_equal(top->err, 0);
    assert_int_equal(top->count, 5);
    static const char *const names[] = {"a.txt", "b.txt", "empty", "link", "sub"};
    for (size_t i = 0; i < 5; i++) {
        const tree_entry *e = &t.entries.items[top->first + i];
        assert_string_equal(name_of(e), names[i]);
        assert_int_equal(e->err, 0);
        char full[256];
        snprintf(full, sizeof full, "%s/%s", root, names[i]);
        assert_string_equal(e->full, full);
    }
    const tree_entry *a = &t.entries.items[top->first], *link = &t.entries.items[top->first + 3];
    assert_int_equal(a->st.st_size, 1);
    assert_true(S_ISREG(a->st.st_mode));
    assert_int_equal(a->folder, SIZE_MAX);
    assert_true(S_ISLNK(link->st.st_mode)); /* lstat's answer: the walk decides on links */
    assert_int_equal(link->folder, SIZE_MAX);
    const tree_entry *empty = &t.entries.items[top->first + 2], *sub = &t.entries.items[top->first + 4];
    assert_int_equal(t.folders.items[empty->folder].count, 0);
    const tree_folder *sf = &t.folders.items[sub->folder];
    assert_int_equal(sf->count, 1); /* .git left out */
    assert_string_equal(name_of(&t.entries.items[sf->first]), "x.bin");
    assert_int_equal(t.entries.items[sf->first].st.st_size, 5);
    content_tree_free(&t);
}

/* One, two or eight threads: the same entries in the same order with the same answers. */
static void test_tree_any_jobs(void **state)
{
    (void)state;
    for (int i = 0; i < 300; i++) { /* more entries than one run of the pool */
        char rel[32];
        snprintf(rel, sizeof rel, "sub/f%03d", i);
        make_file(rel, (size_t)i % 7);
    }
    content_tree one, many;
    read_root(1, &one);
    for (unsigned jobs = 2; jobs <= 8; jobs *= 4) {
        read_root(jobs, &many);
        assert_int_equal(many.entries.count, one.entries.count);
        assert_int_equal(many.folders.count, one.folders.count);
        for (size_t i = 0; i < one.entries.count; i++) {
            const tree_entry *x = &one.entries.items[i], *y = &many.entries.items[i];
            assert_string_equal(x->full, y->full);
            assert_int_equal(x->err, y->err);
            assert_int_equal(x->folder, y->folder);
            assert_int_equal(x->st.st_ino, y->st.st_ino);
            assert_int_equal(x->st.st_size, y->st.st_size);
        }
        content_tree_free(&many);
    }
    assert_int_equal(one.folders.items[one.entries.items[4].folder].count, 301);
    content_tree_free(&one);
}

/* Folders nested past PATH_MAX, each with a file of a long name: an entry whose path is too long
 * to name has lstat's ENAMETOOLONG (what the walk reports for it), every other entry its lstat,
 * and a folder past the limit is never listed. */
static void test_tree_path_too_long(void **state)
{
    (void)state;
    char part[201], file_name[251];
    memset(part, 'd', 200);
    part[200] = 0;
    memset(file_name, 'f', 250);
    file_name[250] = 0;
    int fd = open(root, O_RDONLY | O_DIRECTORY);
    assert_true(fd >= 0);
    for (size_t i = 0; i < PATH_MAX / 201 + 2; i++) {
        int file = openat(fd, file_name, O_WRONLY | O_CREAT, 0666);
        assert_true(file >= 0);
        close(file);
        assert_int_equal(mkdirat(fd, part, 0777), 0);
        int next = openat(fd, part, O_RDONLY | O_DIRECTORY);
        close(fd);
        assert_true(next >= 0);
        fd = next;
    }
    close(fd);
    content_tree t;
    read_root(2, &t);
    size_t too_long = 0, files_too_long = 0;
    for (size_t i = 0; i < t.entries.count; i++) {
        const tree_entry *e = &t.entries.items[i];
        bool over = strlen(e->full) >= PATH_MAX;
        assert_int_equal(e->err, over ? ENAMETOOLONG : 0);
        too_long += over;
        files_too_long += over && strcmp(name_of(e), file_name) == 0;
        if (over) assert_int_equal(e->folder, SIZE_MAX);
    }
    assert_int_equal(too_long, 1 + files_too_long); /* one folder, where the listing stops */
    assert_true(files_too_long >= 1);
    content_tree_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_tree_shape, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tree_any_jobs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tree_path_too_long, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
