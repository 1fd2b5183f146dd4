#include "core/generate.h"

#include "base/depfile.h"
#include "core/emit.h"
#include "base/fsio.h"
#include "base/json_check.h"
#include "core/identity.h"
#include "base/index_map.h"
#include "core/model.h"
#include "core/stage.h"
#include "base/stamp.h"
#include "tlg_version.h"
#include "base/udiff.h"
#include "base/work_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* Everything about one domain that the emit stage needs, prepared before anything is written. */
typedef struct domain_job {
    domain *d;
    char *header_path;   /* where the header goes, relative to the working directory */
    char *manifest_path; /* the in-tree manifest */
    char *shell_text;    /* the shell, loaded and checked */
    VEC(char *) inputs;  /* project-relative input names for the banner */
    manifest m;
    identity_summary summary;
    bool had_manifest;
} domain_job;

static const char *project_relative(const project *p, const char *path)
{
    size_t n = strlen(p->cfg.root);
    if (strcmp(p->cfg.root, ".") != 0 && strncmp(path, p->cfg.root, n) == 0 && path[n] == '/') return path + n + 1;
    return path;
}

static bool load_shell(const project *p, domain_job *job)
{
    domain *d = job->d;
    if (!d->shell) {
        job->shell_text = xstrdup(d->from_definition && !d->cfg ? tlg_shell_custom_domain : tlg_shell_domain);
        return true;
    }
    char *path = path_join(p->cfg.root, d->shell);
    buf text = {0};
    bool ok = fs_read_input(path, FS_INPUT_SHELL, &text);
    if (!ok) {
        const char *why = fs_read_failure();
        if (d->cfg) {
            char key[48];
            snprintf(key, sizeof key, "domains[%zu].shell", (size_t)(d->cfg - p->cfg.domains.items));
            src_loc at = json_locate(p->cfg.path, p->cfg.text, p->cfg.text_len, key);
            diag_error(at.line ? at : d->cfg->loc, "%s: cannot read the shell %s: %s", key, path, why);
            fs_note_case_variant(at.line ? at : d->cfg->loc, path);
        } else {
            diag_error(loc_file(p->cfg.path), "cannot read the shell %s: %s", path, why);
        }
    } else if (!strstr(text.data, "{DOMAIN_ENTRIES}")) {
        diag_error(loc_file(path), "shell has no {DOMAIN_ENTRIES} token: the entries would have nowhere to go");
        ok = false;
    } else if (memchr(text.data, 0, text.len)) {
        diag_error(loc_file(path), "NUL byte in the shell");
        ok = false;
    }
    *vec_push(&job->inputs) = xstrdup(d->shell);
    if (ok) hasher_add_file(p->input_hash, path, text.data, text.len);
    free(path);
    job->shell_text = ok ? xstrdup(text.data) : NULL;
    buf_free(&text);
    return ok;
}

/* Every *.manifest.json below the generated directory (not following symbolic links, skipping
 * dot names): where a moved domain's manifest went, and which manifests no domain declares. */
static void find_manifests(const char *dir, int depth, name_list *out)
{
    name_list entries = {0};
    if (depth > 16 || !fs_list_dir(dir, &entries)) return;
    for (size_t i = 0; i < entries.count; i++) {
        if (entries.items[i][0] == '.') continue;
        char *path = path_join(dir, entries.items[i]);
        fs_kind k = fs_kind_of(path);
        if (k == FS_DIR) find_manifests(path, depth + 1, out);
        if (k == FS_FILE && str_has_suffix(entries.items[i], ".manifest.json", NULL)) *vec_push(out) = path;
        else free(path);
    }
    name_list_free(&entries);
}

/* A manifest whose domain the project no longer declares: its domain was removed from
 * threadlink.json (on purpose or not), and `diff` cannot report the removal while the file stays. */
static void warn_orphan_manifests(const name_list *manifests, const domain_job *jobs, size_t count)
{
    for (size_t i = 0; i < manifests->count; i++) {
        const char *name = path_basename(manifests->items[i]);
        size_t domain_len;
        str_has_suffix(name, ".manifest.json", &domain_len);
        bool declared = false; /* in another case: the domain's own manifest, reported by load_manifest or identity */
        for (size_t j = 0; j < count && !declared; j++)
            declared = ascii_ieq(jobs[j].d->name, strlen(jobs[j].d->name), name, domain_len);
        if (!declared)
            diag_warning(
                loc_file(manifests->items[i]),
                "no domain '%.*s' is declared: to retire the domain, delete this manifest (diff then reports the domain as removed); else declare it again",
                (int)domain_len, name);
    }
}

static bool load_manifest(const name_list *manifests, domain_job *job)
{
    bool ok = true;
    int fd = fs_open_input(job->manifest_path, FS_INPUT_MANIFEST, NULL);
    if (fd < 0) {
        const int open_errno = errno;
        const char *moved = NULL, *respelt = NULL;
        const char *base = path_basename(job->manifest_path);
        for (size_t i = 0; open_errno == ENOENT && i < manifests->count && !moved; i++) {
            const char *other = path_basename(manifests->items[i]);
            if (strcmp(other, base) == 0) moved = manifests->items[i];
            else if (!respelt && ascii_ieq(other, strlen(other), base, strlen(base))) respelt = manifests->items[i];
        }
        if (!moved && respelt) {
            /* The domain's name changed in case only: the same domain, whose values must stay. */
            diag_error(
                loc_file(job->manifest_path),
                "the manifest of %s is %s, named for the domain's old spelling: rename it (git mv) and set its \"domain\" to \"%s\" to keep the domain's values",
                job->d->name, respelt, job->d->name);
            ok = false;
        } else if (moved) {
            /* The domain's output moved, and its manifest with it: issuing values afresh would
             * renumber an ordinal domain and forget every tombstone. */
            diag_error(
                loc_file(job->manifest_path),
                "the manifest of %s is at %s, not here where its output '%s' puts it: move it here (git mv) to keep the domain's values, and delete the old header",
                job->d->name, moved, job->d->output);
            ok = false;
        } else if (open_errno != ENOENT) {
            diag_error(loc_file(job->manifest_path), "cannot read the manifest of %s: %s", job->d->name, fs_read_failure());
            ok = false;
        } else if (fs_kind_of(job->header_path) == FS_FILE) {
            diag_warning(
                loc_file(job->manifest_path),
                "manifest missing although %s exists: values are issued again from the injectors (restore the manifest from version control to keep renamed and removed entries)",
                job->header_path);
        }
        memset(&job->m, 0, sizeof job->m);
    } else {
        job->had_manifest = true;
        ok = manifest_read_fd(job->manifest_path, fd, job->d->decls.count, &job->m);
        close(fd);
        if (!ok)
            diag_note(loc_file(job->manifest_path),
                      "nothing was written: fix or restore the manifest (it is the identity store of %s)", job->d->name);
    }
    return ok;
}

/* Two headers (or two manifests) on one path, or on paths that differ only in case, would overwrite
 * each other. A header on a manifest is check_outputs_not_read's. */
static bool check_distinct_outputs(domain_job *jobs, size_t count)
{
    bool ok = true;
    for (size_t a = 0; a < count; a++)
        for (size_t b = 0; b < a; b++) {
            const char *pa[2] = {jobs[a].header_path, jobs[a].manifest_path};
            const char *pb[2] = {jobs[b].header_path, jobs[b].manifest_path};
            for (int i = 0; i < 2; i++)
                if (ascii_ieq(pa[i], strlen(pa[i]), pb[i], strlen(pb[i]))) {
                    domain *da = jobs[a].d, *db = jobs[b].d;
                    diag_error(da->cfg ? da->cfg->loc : loc_file(pa[i]),
                               "domains '%s' and '%s' both write %s; nothing was written", db->name, da->name, pa[i]);
                    ok = false;
                }
        }
    return ok;
}

static void free_job(domain_job *job)
{
    free(job->header_path);
    free(job->manifest_path);
    free(job->shell_text);
    for (size_t i = 0; i < job->inputs.count; i++) free(job->inputs.items[i]);
    vec_free(&job->inputs);
    manifest_free(&job->m);
    identity_summary_free(&job->summary);
}

/* Everything besides the input files that decides the outputs: the generator itself and how it
 * was asked. */
static uint64_t input_digest(const gen_options *opt, project *p, domain_job *jobs, size_t count)
{
    static const char version[] = "threadlink-gen " TLG_VERSION;
    hasher_add(p->input_hash, version, sizeof version);
    if (opt->generator_build) hasher_add(p->input_hash, opt->generator_build, strlen(opt->generator_build) + 1);
    hasher_add(p->input_hash, tlg_shell_domain, strlen(tlg_shell_domain));
    hasher_add(p->input_hash, tlg_shell_custom_domain, strlen(tlg_shell_custom_domain));
    /* check asks whether generate would change anything: it shares generate's stamp. */
    gen_command cmd = opt->command == GEN_CHECK ? GEN_GENERATE : opt->command;
    unsigned char flags[4] = {(unsigned char)cmd, opt->banner_without_version, opt->strict, 0};
    hasher_add(p->input_hash, flags, sizeof flags);
    if (opt->command == GEN_HEADERS) /* manifests are inputs of the build step */
        for (size_t i = 0; i < count; i++) hasher_add_path(p->input_hash, jobs[i].manifest_path);
    return hasher_digest(p->input_hash);
}

/* The stamp's inputs: the shape (input_digest: everything but the bytes of asset files) and
 * those bytes (the project's contents_hash). */
static uint64_t combined_inputs(uint64_t shape, const project *p)
{
    if (!p->contents_hash) return shape;
    uint64_t parts[2] = {shape, hasher_digest(p->contents_hash)};
    hasher *h = hasher_new();
    hasher_add(h, parts, sizeof parts);
    uint64_t inputs = hasher_digest(h);
    hasher_free(h);
    return inputs;
}

/* Up to date when the stamp names exactly the outputs this run would write, in order, with these
 * inputs, and every output is still what was written. */
static bool stamp_says_up_to_date(const char *stamp_path, uint64_t inputs, char *const *planned, size_t count)
{
    stamp st;
    if (!stamp_read(stamp_path, &st)) return false;
    bool ok = st.inputs == inputs && st.outputs.count == count;
    for (size_t i = 0; ok && i < count; i++) ok = strcmp(st.outputs.items[i].path, planned[i]) == 0;
    ok = ok && stamp_outputs_intact(&st);
    stamp_free(&st);
    return ok;
}

typedef struct written_probe {
    const output_set *set;
    const char *path;
} written_probe;

static bool is_written(const void *ctx, uint32_t i)
{
    const written_probe *p = ctx;
    return strcmp(p->set->files.items[i]->path, p->path) == 0;
}

static bool is_written_ignoring_case(const void *ctx, uint32_t i)
{
    const written_probe *p = ctx;
    const char *path = p->set->files.items[i]->path;
    return ascii_ieq(path, strlen(path), p->path, strlen(p->path));
}

/* Outputs the last run wrote and this one did not (a domain's output moved, a domain or a vault
 * gone) are deleted, so that no stale header stays on the include path to shadow the new one or
 * hide a removal until a clean build. Only files below this run's output directory that are
 * still byte for byte what was written; never a manifest (the identity store of its domain). */
static void remove_stale_outputs(const char *stamp_path, const char *base, const output_set *written, FILE *report)
{
    stamp old;
    if (!stamp_read(stamp_path, &old)) return;
    index_map now; /* this run's outputs by path (a project may write thousands) */
    index_map_init(&now, written->files.count);
    for (size_t k = 0; k < written->files.count; k++) {
        const char *path = written->files.items[k]->path;
        index_map_insert(&now, fnv1a_folded(path, strlen(path)), (uint32_t)k);
    }
    size_t base_len = strlen(base);
    for (size_t i = 0; i < old.outputs.count; i++) {
        const stamp_output *o = &old.outputs.items[i];
        written_probe wp = {written, o->path};
        const uint32_t hash = fnv1a_folded(o->path, strlen(o->path));
        if (index_map_find(&now, hash, is_written, &wp) != UINT32_MAX) continue;
        /* An output whose path changed in case only: on a case-insensitive file system (macOS,
         * Windows) the old spelling names the file just written, which must not be deleted. */
        uint32_t same = index_map_find(&now, hash, is_written_ignoring_case, &wp);
        if (same != UINT32_MAX && fs_respell(o->path, written->files.items[same]->path)) continue;
        if (str_has_suffix(o->path, ".manifest.json", NULL)) continue;
        if (strncmp(o->path, base, base_len) != 0 || o->path[base_len] != '/' || strstr(o->path, "/../")) continue;
        if (!stamp_output_intact(o)) continue;
        if (output_unlink_below(base, o->path + base_len + 1) && report)
            fprintf(report, "removed %s: no longer generated\n", o->path);
    }
    index_map_free(&now);
    stamp_free(&old);
}

static void write_stamp_file(const char *stamp_path, const stamp *st)
{
    output_set set = {.mode = OUTPUT_WRITE};
    out_file *o = output_begin(&set, stamp_path);
    o->optional = true;
    stamp_format(st, &o->chunk);
    if (!output_end(o) || !output_commit(&set))
        diag_warning(loc_file(stamp_path), "cannot record the stamp: the next run will regenerate in full");
    output_set_free(&set);
}

static void write_stamp(const char *stamp_path, uint64_t inputs, uint64_t shape, const output_set *written)
{
    stamp st = {inputs, shape, {0}};
    for (size_t i = 0; i < written->files.count; i++) {
        const out_file *o = written->files.items[i];
        stamp_output *so = vec_push(&st.outputs);
        so->path = xstrdup(o->path);
        so->size = o->pos;
        so->hash = o->hash;
    }
    write_stamp_file(stamp_path, &st);
    stamp_free(&st);
}

/* Every file and directory the run read (shells included), as opened. */
static void visit_inputs(project *p, domain_job *jobs, size_t count, void (*fn)(void *ctx, const char *path), void *ctx)
{
    for (size_t i = 0; i < p->inputs.count; i++) fn(ctx, p->inputs.items[i]);
    for (size_t i = 0; i < count; i++) {
        if (!jobs[i].d || !jobs[i].d->shell) continue;
        char *shell = path_join(p->cfg.root, jobs[i].d->shell);
        fn(ctx, shell);
        free(shell);
    }
}

typedef VEC(char *) path_list;

static void push_depfile_input(void *ctx, const char *path)
{
    /* absolute; an input folder not made yet (no injectors) by its nearest existing parent */
    *vec_push((path_list *)ctx) = depfile_existing_ancestor(path);
}

/* The depfile names every file and directory the outputs derive from (directories too, so that
 * adding or deleting an injector or an asset re-runs the generator), and a phony rule for each
 * input (as gcc -MP), so a deleted input does not break Make. */
static void write_depfile(const gen_options *opt, project *p, domain_job *jobs, size_t count, const char *first_output)
{
    path_list inputs = {0};
    visit_inputs(p, jobs, count, push_depfile_input, &inputs);
    if (opt->command == GEN_HEADERS)
        for (size_t i = 0; i < count; i++) *vec_push(&inputs) = depfile_existing_ancestor(jobs[i].manifest_path);
    char *target = opt->deptarget ? xstrdup(opt->deptarget) : depfile_absolute(first_output);
    depfile_write(opt->depfile, target, inputs.items, inputs.count);
    free(target);
    for (size_t i = 0; i < inputs.count; i++) free(inputs.items[i]);
    vec_free(&inputs);
}

/* One output of the run, in the order it is written. */
typedef struct planned_output {
    char *path;       /* relative to the working directory */
    const char *base; /* its directory root (generated dir or -o DIR) and path below it */
    const char *relative;
    domain_job *job; /* a domain's header or manifest ... */
    bool manifest;
    size_t stage, index; /* ... or a stage's output */
} planned_output;

typedef VEC(planned_output) output_plan;

/* One planned output's text, into o (begun). */
static void emit_one(const planned_output *po, out_file *o, void **stage_state, const emit_options *eo)
{
    if (!po->job) {
        tlg_stages[po->stage]->emit(stage_state[po->stage], po->index, o, eo);
    } else if (po->manifest) {
        emit_manifest(o, po->job->d, &po->job->m);
    } else {
        emit_header(o, po->job->shell_text, po->job->d, &po->job->m, (const char *const *)po->job->inputs.items,
                    po->job->inputs.count, eo);
    }
}

/* The domains' headers and manifests, emitted side by side: they only read the model, each
 * writes its own file (output.c and diag.c take what they share under a lock), and every byte
 * of each is the same whatever the thread or the order. */
typedef struct domain_emission {
    const output_plan *plan;
    out_file **files;
    const size_t *items; /* plan indexes of the domain outputs */
    const emit_options *eo;
    bool *ended;            /* per item: output_end's result */
    diag_hold *diagnostics; /* per item: what it reported, printed in plan order */
} domain_emission;

static void emit_domain_output(void *ctx, size_t item, unsigned worker)
{
    (void)worker;
    domain_emission *de = ctx;
    size_t i = de->items[item];
    diag_hold_begin(&de->diagnostics[item]);
    emit_one(&de->plan->items[i], de->files[i], NULL, de->eo);
    de->ended[item] = output_end(de->files[i]);
    diag_hold_end();
}

static bool emit_domain_outputs(const gen_options *opt, const output_plan *plan, out_file **files, const emit_options *eo)
{
    size_t n = 0;
    size_t *items = xmalloc((plan->count ? plan->count : 1) * sizeof *items);
    for (size_t i = 0; i < plan->count; i++)
        if (files[i] && plan->items[i].job) items[n++] = i;
    bool *ended = xcalloc(n ? n : 1, sizeof *ended);
    diag_hold *diagnostics = xcalloc(n ? n : 1, sizeof *diagnostics);
    domain_emission de = {plan, files, items, eo, ended, diagnostics};
    unsigned jobs = opt->jobs ? opt->jobs : work_pool_cores();
    work_pool *pool = work_pool_start(jobs < n ? jobs : (unsigned)(n ? n : 1), n, emit_domain_output, &de, NULL, 0);
    bool ok = true;
    for (size_t k = 0; k < n; k++) {
        work_pool_wait(pool, k);
        work_pool_release(pool, k);
        diag_release(&diagnostics[k]);
        if (!ended[k]) ok = false;
    }
    work_pool_finish(pool);
    free(items);
    free(ended);
    free(diagnostics);
    return ok;
}

/* Every planned output, or (contents_only) only the stages' outputs made from asset bytes. All
 * are begun first, in plan order (which fixes the order of the set's files); the stages' are
 * emitted here in that order, the domains' side by side. */
static bool emit_all(const gen_options *opt, output_plan *plan, void **stage_state, const stage_outputs *stage_out,
                     bool contents_only, output_set *out)
{
    emit_options eo = {opt->banner_without_version};
    out_file **files = xcalloc(plan->count ? plan->count : 1, sizeof *files);
    bool ok = true;
    for (size_t i = 0; ok && i < plan->count; i++) {
        planned_output *po = &plan->items[i];
        if (contents_only && (po->job || !stage_out[po->stage].items[po->index].of_contents)) continue;
        files[i] = output_begin_below(out, po->base, po->relative);
        files[i]->text = true;
        if (files[i]->failed) ok = false;
    }
    for (size_t i = 0; ok && i < plan->count; i++) {
        if (!files[i] || plan->items[i].job) continue;
        emit_one(&plan->items[i], files[i], stage_state, &eo);
        ok = output_end(files[i]);
    }
    ok = ok && emit_domain_outputs(opt, plan, files, &eo);
    free(files);
    return ok;
}

typedef struct path_probe {
    const output_plan *plan;
    const char *path;
    size_t len;
} path_probe;

static bool same_path(const void *ctx, uint32_t i)
{
    const path_probe *p = ctx;
    const char *other = p->plan->items[i].path;
    return ascii_ieq(other, strlen(other), p->path, p->len);
}

typedef struct guard_probe {
    char *const *guards;
    const char *guard;
} guard_probe;

static bool same_guard(const void *ctx, uint32_t i)
{
    const guard_probe *p = ctx;
    return p->guards[i] && strcmp(p->guards[i], p->guard) == 0;
}

/* No output may be the stamp (which would overwrite it every run), and no two headers may share
 * an include guard (`my-items.h` and `my_items.h`: a file including both would see one). */
static bool check_stamp_and_guards(const output_plan *plan, const src_loc *where, const char *build_base)
{
    bool ok = true;
    char *stamp = path_join(build_base, STAMP_FILE), *quick = path_join(build_base, QUICK_STAMP_FILE);
    char **guards = xcalloc(plan->count ? plan->count : 1, sizeof *guards);
    index_map seen;
    index_map_init(&seen, plan->count);
    for (size_t a = 0; a < plan->count; a++) {
        const planned_output *po = &plan->items[a];
        if (ascii_ieq(po->path, strlen(po->path), stamp, strlen(stamp)) ||
            ascii_ieq(po->path, strlen(po->path), quick, strlen(quick))) {
            diag_error(where[a], "%s is one of the generator's stamp files: choose another output; nothing was written",
                       po->path);
            ok = false;
        }
        if (po->manifest) continue;
        buf g = {0};
        emit_guard_name(&g, po->relative);
        guards[a] = (char *)buf_cstr(&g);
        guard_probe gp = {guards, guards[a]};
        uint32_t h = fnv1a_folded(g.data, g.len);
        uint32_t other = index_map_find(&seen, h, same_guard, &gp);
        const char *op = other == UINT32_MAX ? NULL : plan->items[other].path;
        if (!op) {
            index_map_insert(&seen, h, (uint32_t)a);
        } else if (!ascii_ieq(op, strlen(op), po->path, strlen(po->path))) { /* one path: reported */
            diag_error(
                where[a],
                "%s and %s both get the include guard %s, so a file including both sees only one: rename one; nothing was written",
                op, po->path, guards[a]);
            ok = false;
        }
    }
    for (size_t a = 0; a < plan->count; a++) free(guards[a]);
    free(guards);
    index_map_free(&seen);
    free(stamp);
    free(quick);
    return ok;
}

/* --list-outputs: each output's path below its directory, in the order of the plan. */
static void print_outputs(const output_plan *plan, FILE *out)
{
    for (size_t i = 0; i < plan->count; i++) fprintf(out, "%s\n", plan->items[i].relative);
}

typedef struct named_output {
    const char *name;
    size_t index; /* in the plan, or in the declared list */
} named_output;

static int by_output_name(const void *a, const void *b)
{
    return strcmp(((const named_output *)a)->name, ((const named_output *)b)->name);
}

/* Where a build keeps the list it passes to --expect-outputs. */
static const char outputs_list[] =
    "(the projects init writes: `headers` in meson.build, HEADER_NAMES in the Makefile; CMake's threadlink_generate: reconfigure)";

/* --expect-outputs: the outputs the build declares against the plan, both sorted and walked in
 * step; each difference is named (a header the build does not know of would go stale in it). */
static bool outputs_as_declared(const gen_options *opt, const output_plan *plan, const src_loc *where, const char *config_path)
{
    size_t np = plan->count, nd = opt->expect_output_count;
    named_output *planned = xcalloc(np ? np : 1, sizeof *planned), *declared = xcalloc(nd ? nd : 1, sizeof *declared);
    for (size_t i = 0; i < np; i++) planned[i] = (named_output){plan->items[i].relative, i};
    for (size_t i = 0; i < nd; i++) declared[i] = (named_output){opt->expect_outputs[i], i};
    qsort(planned, np, sizeof *planned, by_output_name);
    qsort(declared, nd, sizeof *declared, by_output_name);
    bool ok = true;
    for (size_t a = 0, b = 0; a < np || b < nd;) {
        int c = a == np ? 1 : b == nd ? -1 : strcmp(planned[a].name, declared[b].name);
        if (c < 0) {
            diag_error(
                where[planned[a].index],
                "extra output %s: written, but the build does not declare it (--expect-outputs): add it to the build's outputs %s; nothing was written",
                planned[a].name, outputs_list);
            ok = false;
        } else if (c > 0 && (b == 0 || strcmp(declared[b].name, declared[b - 1].name) != 0)) {
            diag_error(
                loc_file(config_path),
                "missing output %s: the build declares it (--expect-outputs), but nothing in the project writes it: remove it from the build's outputs %s; nothing was written",
                declared[b].name, outputs_list);
            ok = false;
        }
        if (c <= 0) a++;
        if (c >= 0) b++;
        while (c == 0 && b < nd && strcmp(declared[b].name, declared[b - 1].name) == 0) b++; /* declared twice */
    }
    free(planned);
    free(declared);
    return ok;
}

/* --outputs-file: the outputs' names as --list-outputs prints them. */
static void outputs_text(const output_plan *plan, buf *out)
{
    for (size_t i = 0; i < plan->count; i++) buf_printf(out, "%s\n", plan->items[i].relative);
}

/* The names in `text` (one a line) that `other` lacks. */
static size_t lines_missing_from(const buf *text, const buf *other)
{
    size_t n = 0;
    for (const char *p = text->data, *end = p ? p + text->len : NULL; p && p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        bool found = false;
        for (const char *q = other->data, *qend = q ? q + other->len : NULL; q && q < qend && !found;) {
            const char *qnl = memchr(q, '\n', (size_t)(qend - q));
            size_t qlen = qnl ? (size_t)(qnl - q) : (size_t)(qend - q);
            found = qlen == len && memcmp(p, q, len) == 0;
            q += qlen + 1;
        }
        n += len && !found;
        p += len + 1;
    }
    return n;
}

/* --outputs-file FILE: the build declares what FILE lists (when it configured). A project whose
 * outputs changed rewrites it, so the build system configures again before its next build; the
 * headers are written as usual meanwhile (a header new to the list is included only by files
 * being edited to include it, which this build compiles after the step). */
static bool record_outputs_file(const gen_options *opt, const output_plan *plan)
{
    buf old = {0}, now = {0};
    bool ok = true;
    if (!fs_read_file(opt->outputs_file, &old)) buf_free(&old); /* none yet: the first build */
    outputs_text(plan, &now);
    if (old.len != now.len || (now.len && memcmp(old.data, now.data, now.len) != 0)) {
        output_set set = {.mode = OUTPUT_WRITE};
        out_file *o = output_begin(&set, opt->outputs_file);
        buf_put(&o->chunk, now.data, now.len);
        ok = output_end(o) && output_commit(&set);
        output_set_free(&set);
        if (!ok) diag_error(loc_file(opt->outputs_file), "cannot write the list of outputs");
        else if (old.len)
            diag_note(
                loc_file(opt->outputs_file),
                "the project's outputs changed (%zu new, %zu gone): this file lists them now, and the build configures again before its next run",
                lines_missing_from(&now, &old), lines_missing_from(&old, &now));
    }
    buf_free(&old);
    buf_free(&now);
    return ok;
}

/* Directory entries as the file system resolves them (links in their folders followed, the
 * entry itself not), for the check that no output is a file the run reads. */
typedef struct entry_resolver {
    char *last_dir, *last_real; /* inputs come folder by folder: one realpath per folder */
} entry_resolver;

/* The entry of `path`: its folder resolved, its own name as it is. The folder is compared in
 * place (path_dirname's answer, without making it) to the previous one's. */
static char *entry_of(entry_resolver *er, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dir = !slash ? "." : slash == path ? "/" : path;
    size_t len = !slash || slash == path ? 1 : (size_t)(slash - path);
    if (!er->last_dir || strlen(er->last_dir) != len || memcmp(er->last_dir, dir, len) != 0) {
        free(er->last_dir);
        free(er->last_real);
        er->last_dir = xstrndup(dir, len);
        er->last_real = fs_resolve(er->last_dir, false);
    }
    return path_join(er->last_real, path_basename(path));
}

/* A planned output checked against what the run reads: its entry, and the first read with the
 * same entry (case-folded: a case-insensitive file system has one entry for both), if any. */
typedef struct output_probe {
    uint32_t hash;
    size_t output;
    char *entry;
    bool hit;
    const char *input; /* the read it is: an input, described only if needed (a stat each), */
    char *what;        /* or "the project config threadlink.json", "the manifest of Items" */
} output_probe;

typedef struct output_probes {
    output_probe *items; /* sorted by hash */
    size_t count;
    uint32_t *base_hashes; /* of the outputs' own names, case-folded, sorted */
    entry_resolver er;
} output_probes;

/* Whether some output has this name (case-folded; a hash collision says yes). A read whose name
 * no output has cannot be an output's entry: its folder is not resolved (a realpath per folder
 * of a deep asset tree took most of a run). */
static bool an_output_is_named(const output_probes *op, const char *path)
{
    const char *base = path_basename(path);
    uint32_t h = fnv1a_folded(base, strlen(base));
    size_t lo = 0, hi = op->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (op->base_hashes[mid] < h) lo = mid + 1;
        else hi = mid;
    }
    return lo < op->count && op->base_hashes[lo] == h;
}

static int by_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

static int by_probe_hash(const void *x, const void *y)
{
    const output_probe *a = x, *b = y;
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    return a->output < b->output ? -1 : a->output > b->output;
}

/* A file or directory the run reads: each output whose entry it is takes it, unless an earlier
 * read did. `what` is owned (NULL: `input` is an input). */
static void probe_read(output_probes *op, const char *input, char *what)
{
    if (!an_output_is_named(op, input)) {
        free(what);
        return;
    }
    char *entry = entry_of(&op->er, input);
    uint32_t h = fnv1a_folded(entry, strlen(entry));
    size_t lo = 0, hi = op->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (op->items[mid].hash < h) lo = mid + 1;
        else hi = mid;
    }
    for (size_t i = lo; i < op->count && op->items[i].hash == h; i++) {
        output_probe *o = &op->items[i];
        if (o->hit || !ascii_ieq(o->entry, strlen(o->entry), entry, strlen(entry))) continue;
        o->hit = true;
        o->input = what ? NULL : input;
        o->what = what ? xstrdup(what) : NULL;
    }
    free(entry);
    free(what);
}

/* Every file and directory the run reads, with every domain's manifest (the identity stores),
 * in order, against the outputs. */
static void probe_reads(project *p, domain_job *jobs, size_t count, output_probes *op)
{
    for (size_t i = 0; i < p->inputs.count; i++) probe_read(op, p->inputs.items[i], NULL);
    for (size_t i = 0; i < count; i++) {
        if (jobs[i].d->shell) {
            char *shell = path_join(p->cfg.root, jobs[i].d->shell);
            probe_read(op, shell, xasprintf("the shell %s", shell));
            free(shell);
        }
        probe_read(op, jobs[i].manifest_path, xasprintf("the manifest of %s", jobs[i].d->name));
    }
}

static char *describe_input(const project *p, const char *path)
{
    const char *kind = strcmp(path, p->cfg.path) == 0                  ? "the project config"
                       : fs_kind_follow(path) == FS_DIR                ? "the directory"
                       : str_has_suffix(path, ".txt", NULL)            ? "the entries file"
                       : str_has_suffix(path, ".vault.json", NULL)     ? "the vault schema"
                       : str_has_suffix(path, ".vaultdata.json", NULL) ? "the vault data file"
                                                                       : "the input";
    return xasprintf("%s %s", kind, path);
}

static void report_output_read(project *p, const output_plan *plan, const src_loc *where, const output_probe *o)
{
    const planned_output *po = &plan->items[o->output];
    const domain_config *dc = po->job ? po->job->d->cfg : NULL;
    char key[48];
    snprintf(key, sizeof key, "domains[%zu].output", dc ? (size_t)(dc - p->cfg.domains.items) : 0);
    src_loc at = dc ? json_locate(p->cfg.path, p->cfg.text, p->cfg.text_len, key) : where[o->output];
    char *what = o->what ? NULL : describe_input(p, o->input);
    diag_error(at, "%s%soutput \"%s\" is %s, which this run reads; nothing was written", dc ? key : "", dc ? ": " : "", po->path,
               o->what ? o->what : what);
    free(what);
}

/* No output may replace a file the run reads: "generated_dir": "." with an output named
 * threadlink.json overwrote the config, an output named like an injector replaced the entries.
 * Reported at the domain's "output" key, in plan order. The few outputs are looked up for each
 * of the many reads (pack reads thousands of files), not the reads gathered into a set. */
static bool check_outputs_not_read(project *p, domain_job *jobs, size_t count, const output_plan *plan, const src_loc *where)
{
    output_probes op = {
        xcalloc(plan->count + 1, sizeof *op.items), 0, xcalloc(plan->count + 1, sizeof *op.base_hashes), {NULL, NULL}};
    for (size_t a = 0; a < plan->count; a++) {
        if (plan->items[a].manifest) continue; /* read and written by design */
        const char *base = path_basename(plan->items[a].path);
        output_probe *o = &op.items[op.count];
        op.base_hashes[op.count++] = fnv1a_folded(base, strlen(base));
        o->output = a;
        o->entry = entry_of(&op.er, plan->items[a].path);
        o->hash = fnv1a_folded(o->entry, strlen(o->entry));
    }
    qsort(op.items, op.count, sizeof *op.items, by_probe_hash);
    qsort(op.base_hashes, op.count, sizeof *op.base_hashes, by_u32);
    probe_reads(p, jobs, count, &op);
    bool ok = true;
    const output_probe **by_output = xcalloc(plan->count + 1, sizeof *by_output);
    for (size_t i = 0; i < op.count; i++) by_output[op.items[i].output] = &op.items[i];
    for (size_t a = 0; a < plan->count; a++) {
        if (!by_output[a] || !by_output[a]->hit) continue;
        report_output_read(p, plan, where, by_output[a]);
        ok = false;
    }
    for (size_t i = 0; i < op.count; i++) free(op.items[i].entry), free(op.items[i].what);
    free(op.items);
    free(by_output);
    free(op.base_hashes);
    free(op.er.last_dir);
    free(op.er.last_real);
    return ok;
}

static void plan_add(output_plan *plan, const char *base, const char *relative, domain_job *job, bool manifest, size_t stage,
                     size_t index)
{
    planned_output *po = vec_push(plan);
    po->path = path_join(base, relative);
    po->base = base;
    po->relative = relative;
    po->job = job;
    po->manifest = manifest;
    po->stage = stage;
    po->index = index;
}

/* Temporary files of a killed run beside the planned outputs and the stamp (and the depfile):
 * on the fast path too, since the killed run left the stamp and the outputs as they were. check
 * only reports them (an error: a commit must not carry them). */
static void clean_up_leftovers(const gen_options *opt, const output_plan *plan, const char *build_base, const char *gen_dir)
{
    bool remove = opt->command != GEN_CHECK;
    char **relatives = xcalloc(plan->count + 2, sizeof *relatives);
    const char *bases[2] = {build_base, strcmp(gen_dir, build_base) != 0 ? gen_dir : NULL};
    for (int b = 0; b < 2 && bases[b]; b++) {
        size_t n = 0;
        if (b == 0) relatives[n++] = (char *)STAMP_FILE, relatives[n++] = (char *)QUICK_STAMP_FILE;
        for (size_t i = 0; i < plan->count; i++)
            if (strcmp(plan->items[i].base, bases[b]) == 0) relatives[n++] = (char *)plan->items[i].relative;
        output_leftovers(bases[b], relatives, n, remove);
    }
    if (remove && opt->depfile) {
        char *dir = path_dirname(opt->depfile), *name = (char *)path_basename(opt->depfile);
        output_leftovers(dir, &name, 1, true);
        free(dir);
    }
    free(relatives);
}

static size_t stage_count(void)
{
    size_t n = 0;
    while (tlg_stages[n]) n++;
    return n;
}

/* One run's state, from the loaded project to the written outputs; gen_run calls the steps below
 * in order, each skipped once an earlier one failed. */
typedef struct gen_run_ctx {
    const gen_options *opt;
    gen_result *result;
    FILE *summary_out;
    unsigned errors_before;
    project p;
    size_t nstages, count;
    void **stage_state;
    stage_outputs *stage_out;
    bool *stage_loaded;
    domain_job *jobs;
    char *gen_dir;
    const char *build_base; /* -o DIR for headers, else the generated directory */
    output_plan plan;
    VEC(src_loc) plan_where; /* the config location each planned output is reported at */
    char *stamp_path;
    uint64_t inputs, shape; /* the stamp's two digests (stamp.h) */
    unsigned warnings_before;
    struct timespec began; /* CLOCK_REALTIME_COARSE, as file times are taken (the quick stamp) */
} gen_run_ctx;

static bool no_new_errors(const gen_run_ctx *c) { return diag_error_count() == c->errors_before; }

/* Stages read their inputs first: some add domains of their own. */
static bool load_stages(gen_run_ctx *c)
{
    bool ok = true;
    size_t n = c->nstages ? c->nstages : 1;
    c->stage_state = xcalloc(n, sizeof *c->stage_state);
    c->stage_out = xcalloc(n, sizeof *c->stage_out);
    c->stage_loaded = xcalloc(n, sizeof *c->stage_loaded);
    for (size_t s = 0; s < c->nstages; s++) {
        c->stage_loaded[s] = tlg_stages[s]->load(&c->p, &c->stage_state[s], &c->stage_out[s]);
        if (!c->stage_loaded[s] || (tlg_stages[s]->add_domains && !tlg_stages[s]->add_domains(c->stage_state[s], &c->p)))
            ok = false;
    }
    return ok;
}

static void plan_at(gen_run_ctx *c, const char *base, const char *relative, domain_job *job, bool manifest, size_t stage,
                    size_t index, src_loc where)
{
    plan_add(&c->plan, base, relative, job, manifest, stage, index);
    *vec_push(&c->plan_where) = where;
}

/* Each domain's header (and, but for headers, its manifest): confined, its shell loaded. */
static bool plan_domains(gen_run_ctx *c)
{
    bool ok = true;
    for (size_t i = 0; i < c->count; i++) {
        domain_job *job = &c->jobs[i];
        job->d = &c->p.domains.items[i];
        job->header_path = path_join(c->gen_dir, job->d->output);
        job->manifest_path = path_join(c->gen_dir, job->d->manifest);
        *vec_push(&job->inputs) = xstrdup(project_relative(&c->p, c->p.cfg.path));
        for (size_t s = 0; s < job->d->sources.count; s++)
            *vec_push(&job->inputs) = xstrdup(project_relative(&c->p, job->d->sources.items[s].path));
        src_loc where = model_domain_loc(job->d, c->p.cfg.path);
        if (!output_confined(c->build_base, job->d->output, where)) ok = false;
        if (!output_confined(c->gen_dir, job->d->manifest, where)) ok = false;
        if (!load_shell(&c->p, job)) ok = false;
        plan_at(c, c->build_base, job->d->output, job, false, 0, 0, where);
        if (c->opt->command != GEN_HEADERS) plan_at(c, c->gen_dir, job->d->manifest, job, true, 0, 0, where);
    }
    return check_distinct_outputs(c->jobs, c->count) && ok;
}

/* Stage outputs against everything planned before them, through a set of case-folded paths
 * (thousands of vault headers must not cost a quadratic scan). */
static bool check_stage_outputs_distinct(gen_run_ctx *c, size_t domain_outputs)
{
    if (c->plan.count <= domain_outputs) return true;
    bool ok = true;
    index_map seen;
    index_map_init(&seen, c->plan.count);
    path_probe pp = {&c->plan, NULL, 0};
    for (size_t a = 0; a < c->plan.count; a++) {
        const char *pa = c->plan.items[a].path;
        pp.path = pa;
        pp.len = strlen(pa);
        uint32_t h = fnv1a_folded(pa, pp.len);
        uint32_t dup = index_map_find(&seen, h, same_path, &pp);
        if (dup != UINT32_MAX && a >= domain_outputs) {
            diag_error(c->plan_where.items[a], "%s is already written by another output; nothing was written", pa);
            ok = false;
        }
        if (dup == UINT32_MAX) index_map_insert(&seen, h, (uint32_t)a);
    }
    index_map_free(&seen);
    return ok;
}

/* The stages' outputs (for headers, those that belong in a build directory). */
static bool plan_stage_outputs(gen_run_ctx *c)
{
    bool ok = true;
    size_t domain_outputs = c->plan.count;
    for (size_t s = 0; s < c->nstages; s++) {
        if (!c->stage_loaded[s]) continue;
        for (size_t k = 0; k < c->stage_out[s].count; k++) {
            stage_output *so = &c->stage_out[s].items[k];
            if (c->opt->command == GEN_HEADERS && !so->build_output) continue;
            if (!output_confined(c->build_base, so->path, so->where)) ok = false;
            plan_at(c, c->build_base, so->path, NULL, false, s, k, so->where);
        }
    }
    return check_stage_outputs_distinct(c, domain_outputs) && ok;
}

/* The planned paths as a whole: none an input, no stamp or guard clash, as the build declared. */
static bool check_plan(gen_run_ctx *c, bool ok)
{
    if (!check_outputs_not_read(&c->p, c->jobs, c->count, &c->plan, c->plan_where.items)) ok = false;
    if (!check_stamp_and_guards(&c->plan, c->plan_where.items, c->build_base)) ok = false;
    if (ok && c->opt->expect_outputs_given && !outputs_as_declared(c->opt, &c->plan, c->plan_where.items, c->p.cfg.path))
        ok = false;
    if (ok && c->opt->outputs_file && !record_outputs_file(c->opt, &c->plan)) ok = false;
    if (ok && !c->opt->write_nothing) clean_up_leftovers(c->opt, &c->plan, c->build_base, c->gen_dir);
    return ok;
}

/* The fast path: nothing changed since the stamp was written (the depfile is still written). */
static bool stamp_is_fresh(gen_run_ctx *c)
{
    if (c->plan.count == 0 || !no_new_errors(c)) return false;
    c->shape = input_digest(c->opt, &c->p, c->jobs, c->count);
    c->inputs = combined_inputs(c->shape, &c->p);
    c->stamp_path = path_join(c->build_base, STAMP_FILE);
    VEC(char *) paths = {0};
    for (size_t i = 0; i < c->plan.count; i++) *vec_push(&paths) = c->plan.items[i].path;
    bool fresh = stamp_says_up_to_date(c->stamp_path, c->inputs, paths.items, paths.count);
    vec_free(&paths);
    if (!fresh) return false;
    c->result->outputs = c->plan.count;
    if (c->opt->depfile) write_depfile(c->opt, &c->p, c->jobs, c->count, c->plan.items[0].path);
    return true;
}

/* Every manifest, so that each problem (two conflicted merges) is reported in one run; manifests
 * no domain declares are warned about when `warn_orphans`. */
static bool load_manifests(gen_run_ctx *c, bool warn_orphans)
{
    name_list manifests = {0};
    bool ok = true;
    find_manifests(c->gen_dir, 0, &manifests);
    for (size_t i = 0; i < c->count; i++)
        if (!load_manifest(&manifests, &c->jobs[i])) ok = false;
    if (ok && warn_orphans) warn_orphan_manifests(&manifests, c->jobs, c->count);
    name_list_free(&manifests);
    return ok;
}

/* A domain that has no manifest yet and only new entries: a project before its first generate. */
static bool new_in_project(const domain_job *job)
{
    const identity_summary *s = &job->summary;
    return !job->had_manifest && s->added && !s->removed && !s->revived && !s->signature_changes && !s->renamed;
}

/* Whether a build step says what a domain's manifest has not recorded: pack's pass only for the
 * profiles it packs (the build's headers step says the rest, once). */
static bool reports_unrecorded(const gen_options *opt, const domain *d)
{
    if (!opt->reported_domains) return true;
    for (size_t i = 0; i < opt->reported_count; i++)
        if (strcmp(opt->reported_domains[i], d->name) == 0) return true;
    return false;
}

/* A domain new_in_project whose run says so. */
static bool reports_new(const gen_run_ctx *c, const domain_job *job)
{
    return new_in_project(job) && reports_unrecorded(c->opt, job->d);
}

/* headers on a project before its first generate: one message for every such domain, saying what
 * to run, where each build would otherwise warn once per domain. */
static bool report_new_project(gen_run_ctx *c)
{
    buf names = {0};
    size_t domains = 0, entries = 0, total = 0;
    for (size_t i = 0; i < c->count; i++) total += reports_new(c, &c->jobs[i]);
    for (size_t i = 0; i < c->count; i++) {
        if (!reports_new(c, &c->jobs[i])) continue;
        domains++;
        entries += c->jobs[i].summary.added;
        buf_printf(&names, "%s%s", domains == 1 ? "" : domains == total ? " and " : ", ", c->jobs[i].d->name);
    }
    if (domains) {
        void (*report)(src_loc, const char *, ...) = c->opt->strict ? diag_error : diag_warning;
        report(
            loc_file(c->p.cfg.path),
            "a new project: %s %s no manifest yet, so this build numbers %s %zu entr%s without recording them; run %s once to record them in %s/ (then commit it; if %s/ was deleted, restore it from version control instead: a rebuilt manifest forgets renamed and removed entries)",
            names.data, domains == 1 ? "has" : "have", domains == 1 ? "its" : "their", entries, entries == 1 ? "y" : "ies",
            diag_generate_command(), c->p.cfg.generated_dir, c->p.cfg.generated_dir);
        for (size_t i = 0; i < c->count; i++)
            if (reports_new(c, &c->jobs[i])) identity_note_collisions(&c->jobs[i].summary, c->jobs[i].manifest_path);
    }
    buf_free(&names);
    return !(domains && c->opt->strict);
}

/* What the manifests lack, said also in a run that mutes its other warnings (pack's pass). */
static bool say_unrecorded(const gen_run_ctx *c, const domain_job *job)
{
    bool was = diag_mute_warnings(false);
    bool ok = identity_report_unrecorded(job->d, &job->summary, job->manifest_path, c->opt->strict);
    diag_mute_warnings(was);
    return ok;
}

static bool say_new_project(gen_run_ctx *c)
{
    bool was = diag_mute_warnings(false);
    bool ok = report_new_project(c);
    diag_mute_warnings(was);
    return ok;
}

/* Identity for every domain, merged with its manifest; headers reports what it lacks. */
static bool assign_identities(gen_run_ctx *c)
{
    bool ok = true;
    for (size_t i = 0; i < c->count; i++) {
        domain_job *job = &c->jobs[i];
        if (!identity_assign(job->d, &job->m, job->manifest_path, c->opt->jobs, &job->summary)) {
            if (!job->summary.input_errors)
                diag_note(loc_file(job->manifest_path),
                          "nothing was written: fix or restore the manifest (it is the identity store of %s)", job->d->name);
            ok = false;
            continue;
        }
        bool live = false; /* (the first live entry says it: a big domain's entries are megabytes) */
        for (size_t e = 0; !live && e < job->m.entries.count; e++) live = !job->m.entries.items[e].tombstone;
        if (!live)
            diag_warning(model_domain_loc(job->d, c->p.cfg.path),
                         "domain '%s' has no entries: its enum holds only the sentinel %s_None", job->d->name, job->d->c_name);
        if (c->opt->command == GEN_HEADERS && !new_in_project(job) && reports_unrecorded(c->opt, job->d) &&
            !say_unrecorded(c, job))
            ok = false;
    }
    if (ok && c->opt->command == GEN_HEADERS && !say_new_project(c)) ok = false;
    return ok;
}

/* The stages after identity: they see every domain's merged manifest. */
static bool resolve_stages(gen_run_ctx *c)
{
    if (!c->nstages) return true;
    bool ok = true;
    domain_result *results = xcalloc(c->count ? c->count : 1, sizeof *results);
    for (size_t i = 0; i < c->count; i++) results[i] = (domain_result){c->jobs[i].d, &c->jobs[i].m, c->jobs[i].manifest_path};
    for (size_t s = 0; s < c->nstages; s++)
        if (!tlg_stages[s]->resolve(c->stage_state[s], results, c->count)) ok = false;
    free(results);
    return ok;
}

/* Lines that quote the inputs (a diff of a hand-edited header, the summary's names as written):
 * their control characters shown escaped, as the diagnostics' (an ESC sequence is not the
 * terminal's business, nor a line of the input's choosing the CI log's). */
static void put_escaped(const buf *text, FILE *out)
{
    if (!text->len) return;
    buf shown = {0};
    diag_put_terminal_text(&shown, text->data, true);
    fputs(shown.data, out);
    buf_free(&shown);
}

/* check: a unified diff of every output that would change, and a hint. */
static void print_check_diff(const output_set *out, FILE *summary_out)
{
    buf diff = {0}, old = {0};
    for (size_t i = 0; i < out->files.count; i++) {
        out_file *o = out->files.items[i];
        if (!o->differs) continue;
        old.len = 0;
        bool exists = fs_read_file(o->path, &old);
        if (!exists && errno != ENOENT) { /* over the cap, not a regular file: said, not shown as missing */
            fprintf(summary_out, "threadlink-gen: %s cannot be compared: %s\n", o->path, fs_read_failure());
            continue;
        }
        char *a_name = exists ? xasprintf("a/%s", o->path) : xstrdup("/dev/null");
        char *b_name = xasprintf("b/%s", o->path);
        diff.len = 0;
        bool binary = !o->text || (exists && memchr(old.data, 0, old.len)); /* a text output replaced by bytes */
        bool shortest = binary || udiff(&diff, a_name, exists ? old.data : "", exists ? old.len : 0, b_name,
                                        o->whole.data ? o->whole.data : "", o->whole.len);
        if (binary) fprintf(summary_out, "Binary files %s and %s differ\n", a_name, b_name); /* as diff says it */
        else put_escaped(&diff, summary_out);
        if (!shortest)
            fprintf(
                summary_out,
                "threadlink-gen: %s differs in too many places for the shortest diff within the budget: parts are shown replaced whole\n",
                o->path);
        free(a_name);
        free(b_name);
    }
    buf_free(&diff);
    buf_free(&old);
    if (out->changed)
        fprintf(summary_out, "threadlink-gen: %zu generated file%s out of date: run %s\n", out->changed,
                out->changed == 1 ? " is" : "s are", diag_generate_command());
}

/* After the outputs were committed: stale outputs, the stamp, the depfile, the summary or diff. */
static void after_commit(gen_run_ctx *c, output_set *out)
{
    const gen_options *opt = c->opt;
    if (c->stamp_path && opt->command != GEN_CHECK) {
        remove_stale_outputs(c->stamp_path, c->build_base, out, opt->quiet ? NULL : c->summary_out);
        write_stamp(c->stamp_path, c->inputs, c->shape, out);
    }
    if (opt->depfile && opt->command != GEN_CHECK && out->files.count)
        write_depfile(opt, &c->p, c->jobs, c->count, out->files.items[0]->path);
    if (!opt->quiet && opt->command == GEN_GENERATE)
        for (size_t i = 0; i < c->count; i++) put_escaped(&c->jobs[i].summary.text, c->summary_out);
    if (opt->command == GEN_CHECK) print_check_diff(out, c->summary_out);
}

/* Emit every planned output, then rename them into place together (or none of them). */
static bool emit_and_commit(gen_run_ctx *c)
{
    output_set out = {.mode = c->opt->command == GEN_CHECK ? OUTPUT_CHECK : OUTPUT_WRITE};
    bool ok = emit_all(c->opt, &c->plan, c->stage_state, c->stage_out, false, &out) && no_new_errors(c);
    if (ok) {
        ok = output_commit(&out);
        c->result->outputs = c->result->emitted = out.files.count;
        c->result->changed = out.changed;
        if (ok) after_commit(c, &out);
    } else {
        output_abort(&out);
    }
    output_set_free(&out);
    return ok;
}

static bool plan_has_contents_output(const gen_run_ctx *c)
{
    for (size_t i = 0; i < c->plan.count; i++) {
        const planned_output *po = &c->plan.items[i];
        if (!po->job && c->stage_out[po->stage].items[po->index].of_contents) return true;
    }
    return false;
}

/* Only the bytes of asset files changed since the stamp: its shape is this run's, it records
 * exactly this plan, and every output is still what was written (the manifests included: the
 * same declarations over the same manifests give the same identities). generate only; check and
 * headers go the whole way. *prev: the stamp, when true. */
static bool only_contents_changed(gen_run_ctx *c, stamp *prev)
{
    if (c->opt->command != GEN_GENERATE || c->p.vault_images || !c->stamp_path || !plan_has_contents_output(c)) return false;
    if (!stamp_read(c->stamp_path, prev)) return false;
    bool ok = prev->shape == c->shape && prev->outputs.count == c->plan.count;
    for (size_t i = 0; ok && i < c->plan.count; i++) ok = strcmp(prev->outputs.items[i].path, c->plan.items[i].path) == 0;
    ok = ok && stamp_outputs_intact(prev);
    if (!ok) stamp_free(prev);
    return ok;
}

/* The previous stamp with the outputs this run wrote in their new state, and this run's digests. */
static void restamp(const gen_run_ctx *c, stamp *prev, const output_set *written)
{
    prev->inputs = c->inputs;
    prev->shape = c->shape;
    for (size_t k = 0; k < written->files.count; k++) {
        const out_file *o = written->files.items[k];
        for (size_t i = 0; i < prev->outputs.count; i++)
            if (strcmp(prev->outputs.items[i].path, o->path) == 0)
                prev->outputs.items[i].size = o->pos, prev->outputs.items[i].hash = o->hash;
    }
    write_stamp_file(c->stamp_path, prev);
}

/* The outputs made from asset bytes emitted and committed; the stamp vouches for the rest. */
static bool emit_contents_and_commit(gen_run_ctx *c, stamp *prev)
{
    output_set out = {.mode = OUTPUT_WRITE};
    bool ok = emit_all(c->opt, &c->plan, c->stage_state, c->stage_out, true, &out) && no_new_errors(c);
    if (ok) {
        ok = output_commit(&out);
        c->result->outputs = c->plan.count;
        c->result->emitted = out.files.count;
        c->result->changed = out.changed;
        if (ok) restamp(c, prev, &out);
        if (ok && c->opt->depfile) write_depfile(c->opt, &c->p, c->jobs, c->count, c->plan.items[0].path);
    } else {
        output_abort(&out);
    }
    output_set_free(&out);
    stamp_free(prev);
    return ok;
}

/* Only asset bytes changed: the manifests read, the stages resolved over them, and the outputs
 * made from those bytes emitted. */
static bool regenerate_contents(gen_run_ctx *c, stamp *prev)
{
    if (load_manifests(c, true) && resolve_stages(c)) return emit_contents_and_commit(c, prev);
    stamp_free(prev);
    return false;
}

static void gen_run_free(gen_run_ctx *c)
{
    free(c->stamp_path);
    for (size_t i = 0; i < c->plan.count; i++) free(c->plan.items[i].path);
    vec_free(&c->plan);
    vec_free(&c->plan_where);
    for (size_t s = 0; s < c->nstages; s++) {
        if (c->stage_state[s]) tlg_stages[s]->free(c->stage_state[s]);
        for (size_t k = 0; k < c->stage_out[s].count; k++) free(c->stage_out[s].items[k].path);
        vec_free(&c->stage_out[s]);
    }
    free(c->stage_state);
    free(c->stage_out);
    free(c->stage_loaded);
    for (size_t i = 0; i < c->count; i++) free_job(&c->jobs[i]);
    free(c->jobs);
    free(c->gen_dir);
    model_free(&c->p);
}

/* The stamp found every output up to date: nothing is written, and the stages resolve over the
 * manifests as they are when the run must hand on what they resolve (always_resolve). The stamp
 * vouches for the manifests (they are among its outputs), so identity has nothing to merge. */
static bool resolve_up_to_date(gen_run_ctx *c)
{
    return !c->opt->always_resolve || (load_manifests(c, false) && resolve_stages(c));
}

/* Read and check everything and plan every output before anything is written; then (unless the
 * stamp says nothing changed) manifests, identities, the stages, and one commit of all outputs
 * (none for write_nothing: the run ends with the stages resolved). */
static bool gen_run_steps(gen_run_ctx *c)
{
    bool ok = load_stages(c);
    c->count = c->p.domains.count;
    c->jobs = xcalloc(c->count ? c->count : 1, sizeof *c->jobs);
    c->gen_dir = path_join(c->p.cfg.root, c->p.cfg.generated_dir);
    c->build_base = c->opt->command == GEN_HEADERS && !c->opt->write_nothing ? c->opt->headers_dir : c->gen_dir;
    if (!plan_domains(c)) ok = false;
    if (!plan_stage_outputs(c)) ok = false;
    ok = check_plan(c, ok);
    if (ok && c->opt->list_outputs) {
        print_outputs(&c->plan, c->summary_out);
        c->result->outputs = c->plan.count;
        return true;
    }
    if (ok && !c->opt->write_nothing && stamp_is_fresh(c)) return resolve_up_to_date(c);
    stamp prev;
    if (ok && only_contents_changed(c, &prev)) return regenerate_contents(c, &prev);
    ok = ok && load_manifests(c, true) && assign_identities(c) && resolve_stages(c);
    return ok && (c->opt->write_nothing || emit_and_commit(c));
}

/* ---- The quick stamp (stamp.h): a plain generate over unchanged files returns at once -------- */

/* A plain generate: nothing asked for that a run must do even when nothing changed (a depfile,
 * the list of outputs, the stages' resolution, the inputs named to a watcher). */
static bool quick_eligible(const gen_options *opt)
{
    return opt->command == GEN_GENERATE && !opt->depfile && !opt->outputs_file && !opt->expect_outputs_given &&
           !opt->list_outputs && !opt->on_input && !opt->vault_images && !opt->content && !opt->always_resolve &&
           !opt->write_nothing;
}

static const char *config_path_of(const gen_options *opt) { return opt->config_path ? opt->config_path : "threadlink.json"; }

/* How the run was asked, and from where (the stamp's paths are relative to the working directory). */
static uint64_t quick_options(const gen_options *opt)
{
    static const char version[] = "threadlink-gen " TLG_VERSION;
    hasher *h = hasher_new();
    hasher_add(h, version, sizeof version);
    if (opt->generator_build) hasher_add(h, opt->generator_build, strlen(opt->generator_build) + 1);
    hasher_add(h, config_path_of(opt), strlen(config_path_of(opt)) + 1);
    char *cwd = getcwd(NULL, 0);
    if (cwd) hasher_add(h, cwd, strlen(cwd) + 1);
    free(cwd);
    unsigned char flags[2] = {opt->banner_without_version, opt->strict};
    hasher_add(h, flags, sizeof flags);
    uint64_t digest = hasher_digest(h);
    hasher_free(h);
    return digest;
}

static void drop_diagnostic(void *ctx, diag_level level, src_loc loc, const char *message)
{
    (void)ctx, (void)level, (void)loc, (void)message;
}

/* Where the quick stamp of this config is: its generated directory, read quietly (the full run
 * reports whatever is wrong with it). NULL when the config does not load silently. */
static char *quick_stamp_path(const gen_options *opt)
{
    unsigned errors = diag_error_count(), warnings = diag_warning_count();
    diag_sink saved = diag_set_sink((diag_sink){drop_diagnostic, NULL});
    project_config cfg;
    bool loaded = config_load(config_path_of(opt), &cfg);
    diag_set_sink(saved);
    bool silent = diag_error_count() == errors && diag_warning_count() == warnings;
    diag_restore_counts(errors, warnings);
    if (!loaded) return NULL;
    char *gen_dir = path_join(cfg.root, cfg.generated_dir);
    char *path = silent ? path_join(gen_dir, QUICK_STAMP_FILE) : NULL;
    free(gen_dir);
    config_free(&cfg);
    return path;
}

/* Nothing to do: the quick stamp holds (every input and output stats as the last silent run
 * left it). Nothing else is read. */
static bool quick_up_to_date(const gen_options *opt, gen_result *result)
{
    if (!quick_eligible(opt)) return false;
    char *path = quick_stamp_path(opt);
    size_t outputs = 0;
    bool holds = path && quick_stamp_holds(path, quick_options(opt), &outputs);
    free(path);
    if (holds) result->outputs = outputs, result->quick = true;
    return holds;
}

static void add_quick_input(void *ctx, const char *path) { quick_stamp_add(ctx, path, QUICK_INPUT); }

/* The directories of the outputs, each once (a project writes thousands of outputs into a few). */
static void add_quick_dirs(gen_run_ctx *c, quick_stamp *q)
{
    name_list dirs = {0};
    *vec_push(&dirs) = xstrdup(c->build_base);
    for (size_t i = 0; i < c->plan.count; i++) {
        char *dir = path_dirname(c->plan.items[i].path);
        bool seen = false;
        for (size_t k = dirs.count; k-- > 0 && !seen;) seen = strcmp(dirs.items[k], dir) == 0;
        if (seen) free(dir);
        else *vec_push(&dirs) = dir;
    }
    for (size_t k = 0; k < dirs.count; k++) quick_stamp_add(q, dirs.items[k], QUICK_AS_IS);
    name_list_free(&dirs);
}

/* Every input, output, the stamp and the outputs' directories, as they stat now. */
static void gather_quick_stamp(gen_run_ctx *c, quick_stamp *q)
{
    visit_inputs(&c->p, c->jobs, c->count, add_quick_input, q);
    for (size_t i = 0; i < c->plan.count; i++) quick_stamp_add(q, c->plan.items[i].path, QUICK_OUTPUT);
    quick_stamp_add(q, c->stamp_path, QUICK_AS_IS);
    add_quick_dirs(c, q);
}

/* The quick stamp is made in place before the directories are looked at (making it changes its
 * directory), then written whole; a run cut short leaves a file without its "end" line. */
static bool write_quick_stamp(gen_run_ctx *c, int dir_fd, quick_stamp *q)
{
    int fd = openat(dir_fd, QUICK_STAMP_FILE, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    gather_quick_stamp(c, q);
    buf text = {0};
    quick_stamp_format(q, &text);
    bool ok = q->settled;
    for (size_t at = 0; ok && at < text.len;) {
        ssize_t n = write(fd, text.data + at, text.len - at);
        ok = n > 0 || (n < 0 && errno == EINTR);
        if (n > 0) at += (size_t)n;
    }
    buf_free(&text);
    return close(fd) == 0 && ok;
}

/* After a silent, successful plain generate: the quick stamp of what it read and what it left;
 * none (an older one removed) when an input changed while it ran or a warning was reported. A
 * refused run leaves every file as it was (an older quick stamp names inputs that differ now). */
static void record_quick_stamp(gen_run_ctx *c, bool ok)
{
    if (!ok || !no_new_errors(c) || !quick_eligible(c->opt) || !c->build_base || !c->stamp_path) return;
    int dir_fd = open(c->build_base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) return;
    quick_stamp q;
    quick_stamp_start(&q, quick_options(c->opt), c->began);
    bool silent = diag_warning_count() == c->warnings_before;
    if (!silent || !write_quick_stamp(c, dir_fd, &q)) unlinkat(dir_fd, QUICK_STAMP_FILE, 0);
    quick_stamp_free(&q);
    close(dir_fd);
}

static int run_pipeline(const gen_options *opt, gen_result *result)
{
    gen_result local = {0};
    gen_run_ctx c = {0};
    c.opt = opt;
    c.result = result ? result : &local;
    memset(c.result, 0, sizeof *c.result);
    c.summary_out = opt->summary ? opt->summary : stdout;
    c.errors_before = diag_error_count();
    c.warnings_before = diag_warning_count();
    clock_gettime(CLOCK_REALTIME_COARSE, &c.began);
    if (quick_up_to_date(opt, c.result)) return 0;
    if (!model_load(opt->config_path ? opt->config_path : "threadlink.json", opt->jobs, &c.p)) return 1;
    c.p.vault_images = opt->vault_images && opt->command == GEN_GENERATE;
    c.p.build_step = opt->command == GEN_HEADERS && !opt->write_nothing;
    c.p.strict = opt->strict;
    c.p.jobs = opt->jobs;
    c.p.content = opt->content;
    c.nstages = stage_count();
    bool ok = gen_run_steps(&c);
    record_quick_stamp(&c, ok);
    if (opt->on_input) visit_inputs(&c.p, c.jobs, c.count, opt->on_input, opt->on_input_ctx);
    if (!no_new_errors(&c)) ok = false;
    gen_run_free(&c);
    if (!ok) return 1;
    return (opt->command == GEN_CHECK && c.result->changed) ? 1 : 0;
}

int gen_run(const gen_options *opt, gen_result *result)
{
    if (opt->command != GEN_HEADERS || !opt->reported_domains) return run_pipeline(opt, result);
    bool was = diag_mute_warnings(true); /* pack's pass: the headers step says them (reported_domains) */
    int rc = run_pipeline(opt, result);
    diag_mute_warnings(was);
    return rc;
}
