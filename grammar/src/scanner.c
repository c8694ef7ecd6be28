/*
 * External scanner for the OpenCL C grammar: conditional preprocessor directives.
 *
 * tree-sitter-c parses `#if` groups as structured nodes, which only works where
 * every branch is a sequence of complete items (statements, declarations, fields,
 * enumerators). Real kernels put conditionals anywhere: around a qualifier, inside
 * parameter lists and initializers, around function heads. For each group this
 * scanner decides, when it meets the `#if`/`#ifdef`/`#ifndef` line:
 *
 *  - STRUCT: the parser accepts a structured group here and each branch looks
 *    complete (brackets balance, ends with `;`, `}` or `,`). Emit the ordinary
 *    directive tokens; the grammar builds `preproc_if` and friends.
 *  - EXTRA: read the group as a compiler would with its first branch taken. The
 *    directive line becomes `preproc_conditional` extras, and the remaining
 *    branches (from `#elif`/`#else` through `#endif`) one `preproc_skipped` extra.
 *  - ZERO: `#if 0`, or a test that only another language's compiler passes (`#ifdef
 *    __CUDACC__`, `#if defined(__cplusplus)`): the first branch is skipped and a later
 *    branch, if any, is read.
 *
 * The analysis layer builds its own preprocessor view from the directive lines, so
 * code inside skipped branches is still known to it.
 *
 * It also reads the start of `#pragma` lines: `#pragma OPENCL EXTENSION`,
 * `#pragma OPENCL FP_CONTRACT`, `#pragma unroll`/`nounroll`, or else plain `#pragma`.
 * As regular-expression tokens these took ~50 states of the generated lexer, and
 * past 300 states the tree-sitter CLI compiles the whole lexer without optimization
 * (`#pragma GCC optimize ("O0")` in parser.c), which made every token slower.
 *
 * Kernel files written to be `#include`d into C++ wrap the whole file in one raw string
 * literal: a line `R"(` (or `R"delim(`) before the code and `)"` (`)delim"`) after it.
 * Both markers become `raw_string_marker` extras, so the OpenCL C between them reads as
 * it would on its own and every position in the file is kept. The opening marker must
 * end its line (comments aside) and the closing one be followed only by blanks and
 * comments to the end of the file: neither can then be OpenCL C.
 *
 * Where a statement may start, a name standing alone as a statement with no `;` is a
 * macro that expands to statements or to a loop pragma (`FA_UNROLL` before `for`,
 * `if (i) KEYSET10 else KEYSET00`, `DES_bs_clear_block` before `}`). It is read as one
 * (`_bare_macro`) only where nothing could continue the name as code: the name ends its
 * line and the next code starts with a word, `{` or `}` or is the end of a conditional
 * branch, or `else` or a loop keyword follows on the same line (`UNROLL for (...)`).
 * Keywords and type names are never bare macros. Where a statement may start, a name
 * followed on its line by parentheses that hold two `;` outside nested brackets stands for
 * `for` (`unroll_for (int i = 0; i < n; i++)`), and so does a call with no `;` in its
 * arguments before such parentheses (`unroll_by(4) (int i = 0; ...)`): `_macro_for`.
 *
 * After the last argument or parameter, a name spelled as macros are (capitals, digits
 * and `_`, at least one capital) and followed by `)` is an object-like macro expanding to
 * more of the list (`f(a, b EXTRA_ARGS)`, `void g(int x EXTRA_PARAMS)`): `_macro_pack`;
 * so is each of several such names side by side before the `)` (`f(c A_ARGS B_ARGS)`).
 * After a declarator, such a name followed by `=`, `,`, `;` or `)` is an attribute macro
 * (`int x UNUSED = 1;`, `__global float *p MAYBE_UNUSED, int n`): `_attribute_macro`.
 * Where both are valid and `)` follows, the pack is read.
 */

#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum TokenType {
  PP_IF,
  PP_IFDEF,
  PP_IFNDEF,
  PP_ELIF,
  PP_ELIFDEF,
  PP_ELIFNDEF,
  PP_ELSE,
  PP_ENDIF,
  PP_NEWLINE,
  PREPROC_CONDITIONAL,
  PREPROC_CONDITIONAL_TEXT,
  PREPROC_SKIPPED,
  PRAGMA,
  PRAGMA_OPENCL_EXTENSION,
  PRAGMA_OPENCL_FP_CONTRACT,
  PRAGMA_UNROLL,
  RAW_STRING_MARKER,
  BARE_MACRO,
  MACRO_FOR,
  MACRO_PACK,
  ATTRIBUTE_MACRO,
  ERROR_SENTINEL,
};

enum Mode { MODE_STRUCT = 1, MODE_EXTRA = 2, MODE_ZERO = 3 };

#define MAX_DEPTH 200
/* A structural decision looks ahead at most this many characters. */
#define MAX_LOOKAHEAD 400000

/* Conditions whose branch was chosen in EXTRA groups, remembered so that a later group on
 * the same condition is read under the same assumption. */
#define MAX_ASSUMED 32

typedef struct {
  uint32_t hash;   /* of the condition with negations and outer parentheses removed */
  bool positive;   /* assumed true (the condition as written after removing them) */
} Assumption;

typedef struct {
  uint8_t depth;
  bool pending_text; /* rest of an EXTRA directive line still to be emitted */
  uint8_t skip_branches; /* branches of the group just opened to skip before reading code */
  uint8_t assumed_count;
  Assumption assumed[MAX_ASSUMED];
  uint8_t modes[MAX_DEPTH];
} Scanner;

static void advance(TSLexer *lexer) { lexer->advance(lexer, false); }
static void skip(TSLexer *lexer) { lexer->advance(lexer, true); }
static bool is_hspace(int32_t c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }
static bool is_word(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* After the opening of a block comment: through its end. False at EOF (it does not end). */
static bool skip_block_comment(TSLexer *lexer) {
  int32_t prev = 0;
  while (!lexer->eof(lexer) && !(prev == '*' && lexer->lookahead == '/')) {
    prev = lexer->lookahead;
    advance(lexer);
  }
  if (lexer->eof(lexer)) return false;
  advance(lexer);
  return true;
}

/* After a backslash: the blanks clang-19 allows before the newline of a line splice (it
 * warns, and joins the lines all the same). */
static void skip_splice_blanks(TSLexer *lexer) {
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t' || lexer->lookahead == '\f' ||
         lexer->lookahead == '\v')
    advance(lexer);
}

/* Consumes the rest of a directive line, its continuation lines and a block comment
 * that starts on it, through the terminating newline. Returns false at EOF. */
static void consume_line(TSLexer *lexer) {
  while (!lexer->eof(lexer)) {
    int32_t c = lexer->lookahead;
    if (c == '\n') {
      advance(lexer);
      return;
    }
    if (c == '\\') {
      advance(lexer);
      skip_splice_blanks(lexer);
      if (lexer->lookahead == '\r') advance(lexer);
      if (lexer->lookahead == '\n') advance(lexer);
      continue;
    }
    if (c == '/') {
      advance(lexer);
      if (lexer->lookahead == '*') {
        advance(lexer);
        skip_block_comment(lexer);
      } else if (lexer->lookahead == '/') {
        while (!lexer->eof(lexer) && lexer->lookahead != '\n') {
          if (lexer->lookahead == '\\') {
            advance(lexer);
            skip_splice_blanks(lexer);
            if (lexer->lookahead == '\r') advance(lexer);
          }
          if (!lexer->eof(lexer)) advance(lexer);
        }
      }
      continue;
    }
    advance(lexer);
  }
}

/* Reads a directive name after '#' and optional blanks. */
static unsigned read_name(TSLexer *lexer, char *buf, unsigned cap) {
  unsigned n = 0;
  while (is_word(lexer->lookahead) && !lexer->eof(lexer)) {
    if (n + 1 < cap) buf[n++] = (char)lexer->lookahead;
    advance(lexer);
  }
  buf[n < cap ? n : cap - 1] = 0;
  return n;
}

typedef enum { D_OTHER, D_OPEN, D_ALT, D_END } DirectiveKind;

static DirectiveKind classify(const char *name) {
  if (!strcmp(name, "if") || !strcmp(name, "ifdef") || !strcmp(name, "ifndef")) return D_OPEN;
  if (!strcmp(name, "elif") || !strcmp(name, "elifdef") || !strcmp(name, "elifndef") ||
      !strcmp(name, "else"))
    return D_ALT;
  if (!strcmp(name, "endif")) return D_END;
  return D_OTHER;
}

/*
 * Walks forward through code, at the start of a line, until the directive that ends
 * the current branch at nesting depth 0 (`#elif`/`#else`/`#endif`), or EOF. Stops
 * after the '#' and name of that directive and reports its kind in *kind (D_OTHER at
 * EOF), and in *is_else (when not NULL) whether it is `#else`.
 *
 * When `check` is set, also reports whether the walked branch looks like a run of
 * complete items: brackets balanced and the last code character one of ; } ,
 * (or no code at all). Only the first branch of nested groups is counted.
 */
static bool walk_branch(TSLexer *lexer, DirectiveKind *kind, bool check, unsigned *budget,
                        bool *is_else) {
  int paren = 0, brace = 0, bracket = 0;
  int32_t last = 0;
  bool ok = true;
  bool first = true;  /* no code seen yet in this branch */
  bool line_start = true;
  unsigned nested = 0;       /* nesting depth of groups inside this branch */
  unsigned nested_skip = 0;  /* >0: inside a non-first branch of a nested group */
  char name[16];

  while (!lexer->eof(lexer)) {
    if (*budget == 0) return false;
    (*budget)--;
    int32_t c = lexer->lookahead;
    if (c == '\n') {
      line_start = true;
      advance(lexer);
      continue;
    }
    if (is_hspace(c) || c == '\r') {
      advance(lexer);
      continue;
    }
    if (line_start && c == '#') {
      advance(lexer);
      while (is_hspace(lexer->lookahead)) advance(lexer);
      read_name(lexer, name, sizeof name);
      DirectiveKind k = classify(name);
      if (nested == 0 && (k == D_ALT || k == D_END)) {
        *kind = k;
        if (is_else) *is_else = !strcmp(name, "else");
        if (check && (paren || brace || bracket || !(last == 0 || last == ';' || last == '}' || last == ',')))
          ok = false;
        return ok;
      }
      if (k == D_OPEN) nested++;
      if (k == D_ALT && nested > 0 && nested_skip == 0) nested_skip = nested;
      if (k == D_END && nested > 0) {
        if (nested_skip == nested) nested_skip = 0;
        nested--;
      }
      consume_line(lexer);
      line_start = true;
      continue;
    }
    line_start = false;
    if (c == '/') {
      advance(lexer);
      if (lexer->lookahead == '/' || lexer->lookahead == '*') {
        /* a comment: reuse the directive-line reader, which knows both forms */
        if (lexer->lookahead == '/') {
          while (!lexer->eof(lexer) && lexer->lookahead != '\n') {
            if (lexer->lookahead == '\\') {
              advance(lexer);
              skip_splice_blanks(lexer);
              if (lexer->lookahead == '\r') advance(lexer);
            }
            if (!lexer->eof(lexer)) advance(lexer);
          }
        } else {
          advance(lexer);
          skip_block_comment(lexer);
        }
        continue;
      }
      if (nested_skip == 0) last = '/';
      continue;
    }
    if (c == '"' || c == '\'') {
      int32_t quote = c;
      advance(lexer);
      while (!lexer->eof(lexer) && lexer->lookahead != quote && lexer->lookahead != '\n') {
        if (lexer->lookahead == '\\') advance(lexer);
        if (!lexer->eof(lexer)) advance(lexer);
      }
      if (lexer->lookahead == quote) advance(lexer);
      if (nested_skip == 0) last = quote;
      continue;
    }
    if (c == '\\') { /* line continuation outside directives */
      advance(lexer);
      skip_splice_blanks(lexer);
      continue;
    }
    if (nested_skip == 0 && first && check) {
      first = false;
      /* A branch that starts by continuing a statement (`else {`, `&& x`, `, y`) cannot
       * be a run of complete items. */
      if (c == 'e') {
        const char *kw = "else";
        unsigned i = 0;
        while (kw[i] && lexer->lookahead == kw[i]) {
          advance(lexer);
          i++;
        }
        if (!kw[i] && !is_word(lexer->lookahead)) ok = false;
        last = 'e';
        continue;
      }
      if (c == '&' || c == '|' || c == '?' || c == ':' || c == ',' || c == ')' || c == ']' ||
          c == '.' || c == '=' || c == '<' || c == '>' || c == '+' || c == '%' || c == '^')
        ok = false;
    }
    if (nested_skip == 0) {
      first = false;
      switch (c) {
        case '(': paren++; break;
        case ')': paren--; break;
        case '{': brace++; break;
        case '}': brace--; break;
        case '[': bracket++; break;
        case ']': bracket--; break;
        default: break;
      }
      if (paren < 0 || brace < 0 || bracket < 0) ok = false;
      last = c;
    }
    advance(lexer);
  }
  *kind = D_OTHER; /* EOF: the group is not closed */
  if (check && (paren || brace || bracket)) ok = false;
  return ok;
}

/* Skips branches until the matching `#endif` line has been consumed (or EOF).
 * Called with the lexer just after the name of an `#elif`/`#else`/`#endif`. */
static void skip_to_endif(TSLexer *lexer, DirectiveKind kind) {
  unsigned budget = UINT32_MAX;
  while (kind != D_END && !lexer->eof(lexer)) {
    consume_line(lexer);
    walk_branch(lexer, &kind, false, &budget, NULL);
  }
  consume_line(lexer);
}

/* True when the condition on the rest of this `#if` line is the literal 0. */
#define MAX_CONDITION 256

/* Reads the rest of a directive line (continuations joined, comments dropped) into `buf`
 * with blanks removed and `defined X` written `defined(X)`, through the newline. Returns
 * false when the condition is too long to compare. */
static bool read_condition(TSLexer *lexer, char *buf, unsigned cap) {
  unsigned n = 0;
  bool fits = true, blank = false;
  buf[0] = 0;
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer) || c == '\n') break;
    if (c == '\\') {
      advance(lexer);
      skip_splice_blanks(lexer);
      if (lexer->lookahead == '\r') advance(lexer);
      if (lexer->lookahead == '\n') advance(lexer);
      blank = true;
      continue;
    }
    advance(lexer);
    if (c == '/' && (lexer->lookahead == '/' || lexer->lookahead == '*')) {
      /* a comment: what came before is the condition; the rest of the line is read */
      if (lexer->lookahead == '*') {
        advance(lexer);
        skip_block_comment(lexer);
        blank = true;
        continue;
      }
      consume_line(lexer);
      buf[n] = 0;
      return fits;
    }
    if (is_hspace(c) || c == '\r') {
      blank = true;
      continue;
    }
    /* `defined X` -> `defined(X)` */
    if (blank && is_word(c) && n >= 7 && !strncmp(buf + n - 7, "defined", 7) &&
        (n == 7 || !is_word(buf[n - 8]))) {
      if (n + 1 < cap) buf[n++] = '('; else fits = false;
      for (;;) {
        if (n + 1 < cap) buf[n++] = (char)c; else fits = false;
        if (lexer->eof(lexer) || !is_word(lexer->lookahead)) break;
        c = lexer->lookahead;
        advance(lexer);
      }
      if (n + 1 < cap) buf[n++] = ')'; else fits = false;
      buf[n] = 0;
      blank = false;
      continue;
    }
    blank = false;
    if (n + 1 < cap) buf[n++] = (char)c; else fits = false;
    buf[n] = 0;
  }
  if (!lexer->eof(lexer)) advance(lexer);
  buf[n] = 0;
  return fits;
}

/* True when `buf[from, to)` is one operand: a name or number, `defined(X)`, or a
 * parenthesised group that closes at its end. */
static bool is_one_operand(const char *buf, unsigned from, unsigned to) {
  if (from >= to) return false;
  if (buf[from] == '(') {
    int depth = 0;
    for (unsigned i = from; i < to; i++) {
      if (buf[i] == '(') depth++;
      if (buf[i] == ')' && --depth == 0) return i == to - 1;
    }
    return false;
  }
  unsigned i = from;
  while (i < to && is_word(buf[i])) i++;
  if (i == to) return true;
  return i - from == 7 && !strncmp(buf + from, "defined", 7) && is_one_operand(buf, i, to);
}

/* Removes outer parentheses and leading `!` from one operand, flipping `*positive` for
 * each `!`, and hashes what is left (FNV-1a). */
static uint32_t condition_key(const char *buf, bool *positive) {
  unsigned from = 0, to = (unsigned)strlen(buf);
  for (;;) {
    if (to - from >= 2 && buf[from] == '(' && is_one_operand(buf, from, to)) {
      from++;
      to--;
    } else if (to - from >= 2 && buf[from] == '!' && buf[from + 1] != '=' &&
               is_one_operand(buf, from + 1, to)) {
      from++;
      *positive = !*positive;
    } else {
      break;
    }
  }
  uint32_t h = 2166136261u;
  for (unsigned i = from; i < to; i++) h = (h ^ (uint8_t)buf[i]) * 16777619u;
  return h;
}

/* Names only other languages' compilers define (C++, CUDA, HIP, Objective-C): clang-19 defines
 * none of them for OpenCL C. A group that tests one is never compiled as OpenCL C, whatever the
 * host passes, and dual-language sources put code there that is not C (`template <...>` before a
 * head, operator overloads, `extern "C" {`). The same list as the analysis layer's
 * `gating/clang_decided.py`. */
static const char *const FOREIGN_NAMES[] = {
  "__cplusplus", "__CUDACC__", "__CUDACC_RTC__", "__CUDA_ARCH__", "__NVCC__", "__HIPCC__", "__HIP__",
  "__HIP_DEVICE_COMPILE__", "__OPENCL_CPP_VERSION__", "__cplusplus_cli", "__OBJC__", NULL,
};

static bool is_foreign_name(const char *buf, unsigned from, unsigned to) {
  for (unsigned i = 0; FOREIGN_NAMES[i]; i++)
    if (strlen(FOREIGN_NAMES[i]) == to - from && !strncmp(buf + from, FOREIGN_NAMES[i], to - from)) return true;
  return false;
}

/* Whether `buf[from, to)` is `X`, `defined(X)` or either in parentheses, with X foreign. */
static bool tests_foreign_name(const char *buf, unsigned from, unsigned to) {
  while (to - from >= 2 && buf[from] == '(' && is_one_operand(buf, from, to)) {
    from++;
    to--;
  }
  if (to - from > 9 && !strncmp(buf + from, "defined(", 8) && buf[to - 1] == ')') {
    from += 8;
    to--;
  }
  return is_foreign_name(buf, from, to);
}

/* Whether a group's condition is false for every OpenCL C build: `#ifdef X`, `#if defined(X)`
 * or `#if X` with X foreign, or a conjunction (`&&` at the top level) with such a term. */
static bool foreign_condition(const char *buf, enum TokenType token) {
  unsigned len = (unsigned)strlen(buf);
  if (token == PP_IFNDEF) return false;
  if (token == PP_IFDEF) return is_foreign_name(buf, 0, len);
  int depth = 0;
  unsigned from = 0;
  for (unsigned i = 0; i <= len; i++) {
    char c = i < len ? buf[i] : 0;
    if (c == '(') depth++;
    if (c == ')') depth--;
    if (c == '|' && depth == 0) return false; /* a disjunction: another term may hold */
    if (depth == 0 && (c == 0 || (c == '&' && i + 1 < len && buf[i + 1] == '&'))) {
      if (tests_foreign_name(buf, from, i)) return true;
      from = i + 2;
      i++;
    }
  }
  return false;
}

/* -1: nothing is known about the condition; 1: it was assumed as written; 0: the opposite. */
static int assumed(const Scanner *s, uint32_t key, bool positive) {
  for (unsigned i = 0; i < s->assumed_count; i++)
    if (s->assumed[i].hash == key) return s->assumed[i].positive == positive;
  return -1;
}

static void assume(Scanner *s, uint32_t key, bool positive) {
  for (unsigned i = 0; i < s->assumed_count; i++)
    if (s->assumed[i].hash == key) {
      s->assumed[i].positive = positive;
      return;
    }
  if (s->assumed_count == MAX_ASSUMED) { /* forget the oldest */
    memmove(s->assumed, s->assumed + 1, (MAX_ASSUMED - 1) * sizeof(Assumption));
    s->assumed_count--;
  }
  s->assumed[s->assumed_count].hash = key;
  s->assumed[s->assumed_count].positive = positive;
  s->assumed_count++;
}

static bool push(Scanner *s, uint8_t mode) {
  if (s->depth < MAX_DEPTH) s->modes[s->depth++] = mode;
  return true;
}

static uint8_t top(Scanner *s) { return s->depth ? s->modes[s->depth - 1] : 0; }
static void pop(Scanner *s) {
  if (s->depth) s->depth--;
}

static bool skip_blank_and_comments(TSLexer *lexer, bool stop_at_newline);

/* After a group's `#endif` line (the lexer just past its name): whether the code goes on
 * with `else`, so that an `if` inside the group takes an `else` outside it (`#if A` `if (x)
 * s1;` `#else` `if (y) s2;` `#endif` `else s3;`). */
static bool else_follows(TSLexer *lexer) {
  consume_line(lexer);
  if (!skip_blank_and_comments(lexer, false) || lexer->eof(lexer)) return false;
  const char *kw = "else";
  for (unsigned i = 0; kw[i]; i++) {
    if (lexer->lookahead != kw[i]) return false;
    advance(lexer);
  }
  return !is_word(lexer->lookahead);
}

static bool scan_open(Scanner *s, TSLexer *lexer, const bool *valid, const char *name) {
  enum TokenType token = !strcmp(name, "if") ? PP_IF : !strcmp(name, "ifdef") ? PP_IFDEF : PP_IFNDEF;
  lexer->mark_end(lexer);  /* both the structural and the EXTRA token end after the name */

  char condition[MAX_CONDITION];
  bool comparable = read_condition(lexer, condition, sizeof condition) && condition[0];
  bool positive = token != PP_IFNDEF;
  uint32_t key = 0;
  if (comparable) {
    if (token != PP_IF) { /* `#ifdef X` is `defined(X)` */
      char def[MAX_CONDITION + 9];
      strcpy(def, "defined(");
      strcat(def, condition);
      strcat(def, ")");
      key = condition_key(def, &positive);
    } else {
      key = condition_key(condition, &positive);
    }
  }

  if ((token == PP_IF && !strcmp(condition, "0")) || (comparable && foreign_condition(condition, token))) {
    unsigned budget = UINT32_MAX;
    DirectiveKind kind = D_OTHER;
    walk_branch(lexer, &kind, false, &budget, NULL);
    if (kind != D_ALT) {
      consume_line(lexer);
      lexer->mark_end(lexer);
    } else {
      /* end the token before the `#elif`/`#else` line: back up is impossible, so
       * the branch end was reached by reading the name; mark the end after the
       * whole skipped branch including that directive's line and read the next
       * branch as live code. */
      consume_line(lexer);
      lexer->mark_end(lexer);
      push(s, MODE_EXTRA);
      lexer->result_symbol = PREPROC_SKIPPED;
      return true;
    }
    lexer->result_symbol = PREPROC_SKIPPED;
    return true;
  }

  /* Walk every branch, noting which look like runs of complete items. */
  unsigned budget = MAX_LOOKAHEAD;
  DirectiveKind kind = D_ALT;
  bool is_else = false, has_else = false;
  bool first_complete = walk_branch(lexer, &kind, true, &budget, &is_else);
  bool all_complete = first_complete;
  unsigned branches = 1, first_later_complete = 0;
  while (kind == D_ALT && budget > 0 && branches < 255) {
    has_else = has_else || is_else;
    consume_line(lexer);
    bool complete = walk_branch(lexer, &kind, true, &budget, &is_else);
    if (complete && !first_later_complete) first_later_complete = branches;
    all_complete = all_complete && complete;
    branches++;
  }
  bool whole = budget > 0 && kind == D_END;
  /* an `if` in the branches that an `else` after the group continues: not complete items */
  if (valid[token] && all_complete && whole && else_follows(lexer)) all_complete = false;
  if (valid[token] && all_complete && whole) {
    push(s, MODE_STRUCT);
    lexer->result_symbol = token;
    return true;
  }
  push(s, MODE_EXTRA);
  s->pending_text = true;
  /* Which branch is read. A condition chosen before is read the same way again, so that
   * the two halves of a construct split over two groups (`#if A` ... `{`, later `#if !A`
   * ... `}`) agree. Otherwise the first branch, unless it is not a run of complete items
   * (text that is not code, half of a construct) while a later branch written out is:
   * then the branch that parses. */
  if (whole) {
    int known = comparable ? assumed(s, key, positive) : -1;
    if (known == 0) s->skip_branches = 1;
    else if (known == -1 && !first_complete && first_later_complete)
      s->skip_branches = (uint8_t)first_later_complete;
    if (comparable) assume(s, key, s->skip_branches ? !positive : positive);
  }
  lexer->result_symbol = PREPROC_CONDITIONAL;
  return true;
}

/* Skips `s->skip_branches` branches of the group whose directive line was just read: one
 * `preproc_skipped` through the directive line that starts the branch read next, or
 * through `#endif` when none is. */
static bool scan_skipped_branches(Scanner *s, TSLexer *lexer) {
  unsigned budget = UINT32_MAX;
  DirectiveKind kind = D_ALT;
  while (s->skip_branches > 0 && !lexer->eof(lexer)) {
    walk_branch(lexer, &kind, false, &budget, NULL);
    consume_line(lexer);
    s->skip_branches--;
    if (kind == D_END) {
      pop(s);
      break;
    }
  }
  s->skip_branches = 0;
  lexer->mark_end(lexer);
  lexer->result_symbol = PREPROC_SKIPPED;
  return true;
}

/* After `#pragma`: the OpenCL pragmas and loop pragmas get their own token (which
 * takes the following words too); any other pragma is `#pragma` plus its argument. */
static bool scan_pragma(TSLexer *lexer, const bool *valid) {
  lexer->mark_end(lexer); /* plain `#pragma` ends here */
  char word[16];
  while (is_hspace(lexer->lookahead)) advance(lexer);
  read_name(lexer, word, sizeof word);
  if (!strcmp(word, "OPENCL") && (valid[PRAGMA_OPENCL_EXTENSION] || valid[PRAGMA_OPENCL_FP_CONTRACT])) {
    while (is_hspace(lexer->lookahead)) advance(lexer);
    read_name(lexer, word, sizeof word);
    if (!strcmp(word, "EXTENSION") && valid[PRAGMA_OPENCL_EXTENSION]) {
      lexer->mark_end(lexer);
      lexer->result_symbol = PRAGMA_OPENCL_EXTENSION;
      return true;
    }
    if (!strcmp(word, "FP_CONTRACT") && valid[PRAGMA_OPENCL_FP_CONTRACT]) {
      lexer->mark_end(lexer);
      lexer->result_symbol = PRAGMA_OPENCL_FP_CONTRACT;
      return true;
    }
  } else if ((!strcmp(word, "unroll") || !strcmp(word, "nounroll")) && valid[PRAGMA_UNROLL]) {
    lexer->mark_end(lexer);
    lexer->result_symbol = PRAGMA_UNROLL;
    return true;
  }
  if (!valid[PRAGMA]) return false;
  lexer->result_symbol = PRAGMA;
  return true;
}

/* Delimiter characters of a raw string marker (C++ allows 16). */
#define MAX_RAW_DELIMITER 16

/* Skips blanks and comments, and newlines unless `stop_at_newline`. Returns false when it
 * consumed a `/` that starts no comment, or a comment that does not end. */
static bool skip_blank_and_comments(TSLexer *lexer, bool stop_at_newline) {
  for (;;) {
    int32_t c = lexer->lookahead;
    if (lexer->eof(lexer)) return true;
    if (is_hspace(c) || c == '\r') {
      advance(lexer);
    } else if (c == '\n') {
      if (stop_at_newline) return true;
      advance(lexer);
    } else if (c == '/') {
      advance(lexer);
      if (lexer->lookahead == '/') {
        while (!lexer->eof(lexer) && lexer->lookahead != '\n') advance(lexer);
      } else if (lexer->lookahead == '*') {
        advance(lexer);
        if (!skip_block_comment(lexer)) return false;
      } else {
        return false;
      }
    } else {
      return true;
    }
  }
}

/* C++'s d-char: any visible character but parentheses, backslash and the quote (space and
 * controls excluded): `R"CLC(`, `R"===(`. */
static bool is_raw_delimiter_char(int32_t c) {
  return c > ' ' && c < 127 && c != '(' && c != ')' && c != '\\' && c != '"';
}

/* A raw string's delimiter and the character that ends it (`(` opening, `"` closing);
 * the marker token ends there. */
static bool read_raw_delimiter(TSLexer *lexer, int32_t end) {
  for (unsigned n = 0; lexer->lookahead != end; n++) {
    if (n == MAX_RAW_DELIMITER || !is_raw_delimiter_char(lexer->lookahead)) return false;
    advance(lexer);
  }
  advance(lexer);
  lexer->mark_end(lexer);
  return true;
}

/* `R"delim(` at the end of its line (lookahead on the `"` after `R`). */
static bool scan_raw_open(TSLexer *lexer) {
  advance(lexer);
  if (!read_raw_delimiter(lexer, '(')) return false;
  if (!skip_blank_and_comments(lexer, true) || !(lexer->eof(lexer) || lexer->lookahead == '\n')) return false;
  lexer->result_symbol = RAW_STRING_MARKER;
  return true;
}

/* `)delim"` followed by nothing but blanks and comments (lookahead on `)`). */
static bool scan_raw_close(TSLexer *lexer) {
  advance(lexer);
  if (!read_raw_delimiter(lexer, '"')) return false;
  if (!skip_blank_and_comments(lexer, false) || !lexer->eof(lexer)) return false;
  lexer->result_symbol = RAW_STRING_MARKER;
  return true;
}

static bool is_word_start(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool in_list(const char *word, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(word, *list)) return true;
  return false;
}

/* Keywords, qualifiers and built-in type names: a line holding only one of these is a
 * statement or declaration split over lines, never a macro. */
static bool is_reserved(const char *w) {
  static const char *const words[] = {
    "auto", "break", "case", "const", "continue", "default", "do", "else", "enum", "extern",
    "for", "goto", "if", "inline", "register", "restrict", "return", "signed", "sizeof",
    "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    "_Bool", "_Complex", "_Atomic", "_Alignas", "_Alignof", "_Generic", "_Noreturn",
    "_Static_assert", "_Thread_local", "__inline", "__inline__", "__restrict", "__attribute__",
    "__attribute", "__declspec", "asm", "__asm__", "typeof", "__typeof__", "__extension__",
    "__kernel", "kernel", "__global", "global", "__local", "local", "__constant", "constant",
    "__private", "private", "__generic", "generic", "__read_only", "read_only", "__write_only",
    "write_only", "__read_write", "read_write", "uniform", "pipe", "true", "false", "NULL",
    NULL,
  };
  static const char *const scalars[] = {
    "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
    "half", "bool", "quad", NULL,
  };
  if (in_list(w, words)) return true;
  size_t n = strlen(w);
  if (n > 2 && w[n - 2] == '_' && w[n - 1] == 't') return true; /* size_t, image2d_t, ... */
  for (const char *const *base = scalars; *base; base++) {
    size_t b = strlen(*base);
    if (strncmp(w, *base, b)) continue;
    const char *rest = w + b;
    if (!*rest || !strcmp(rest, "2") || !strcmp(rest, "3") || !strcmp(rest, "4") ||
        !strcmp(rest, "8") || !strcmp(rest, "16"))
      return true;
  }
  return false;
}

/* After a `(`: how many `;` stand in it outside any nested bracket before its `)` (a
 * `for`'s clauses have two, a call's arguments none), or -1 past two or with no `)` in a
 * bounded look (a file-wide `STRINGIFY(...)` is no loop); literals and comments skipped. */
static int semicolons_in_parens(TSLexer *lexer) {
  int depth = 1, braces = 0, semicolons = 0;
  for (unsigned n = 0; n < 4096 && !lexer->eof(lexer); n++) {
    int32_t c = lexer->lookahead;
    advance(lexer);
    if (c == '"' || c == '\'') {
      while (!lexer->eof(lexer) && lexer->lookahead != c && lexer->lookahead != '\n') {
        if (lexer->lookahead == '\\') advance(lexer);
        advance(lexer);
      }
      if (!lexer->eof(lexer)) advance(lexer);
    } else if (c == '/' && (lexer->lookahead == '/' || lexer->lookahead == '*')) {
      bool line = lexer->lookahead == '/';
      advance(lexer);
      int32_t prev = 0;
      while (!lexer->eof(lexer)) {
        int32_t d = lexer->lookahead;
        if (line && d == '\n') break;
        advance(lexer);
        if (!line && prev == '*' && d == '/') break;
        prev = d;
      }
    } else if (c == '(' || c == '[') {
      depth++;
    } else if (c == ')' || c == ']') {
      if (--depth == 0) return semicolons;
    } else if (c == '{') {
      braces++;
    } else if (c == '}') {
      braces--;
    } else if (c == ';' && depth == 1 && braces == 0 && ++semicolons > 2) {
      return -1;
    }
  }
  return -1;
}

/* A name alone as a statement, or a name standing for `for` (lookahead on its first
 * character); see the header. */
static bool scan_bare_macro(TSLexer *lexer, const bool *valid, const char *prefix) {
  char word[64];
  unsigned n = (unsigned)strlen(prefix);
  memcpy(word, prefix, n);
  while (is_word(lexer->lookahead) && !lexer->eof(lexer)) {
    if (n + 1 >= sizeof word) return false;
    word[n++] = (char)lexer->lookahead;
    advance(lexer);
  }
  word[n] = 0;
  if (is_reserved(word)) return false;
  lexer->mark_end(lexer);
  if (!skip_blank_and_comments(lexer, true)) return false;
  if (lexer->lookahead == '(' && !lexer->eof(lexer)) {
    /* `unroll_for (int i = 0; i < n; i++)`: a macro for the `for` keyword; `unroll_by(4)
     * (int i = 0; ...)`: one with arguments (the token takes them) */
    if (!valid[MACRO_FOR]) return false;
    advance(lexer);
    int found = semicolons_in_parens(lexer);
    if (found == 0) {
      lexer->mark_end(lexer);
      if (!skip_blank_and_comments(lexer, true) || lexer->lookahead != '(' || lexer->eof(lexer)) return false;
      advance(lexer);
      found = semicolons_in_parens(lexer);
    }
    if (found != 2) return false;
    lexer->result_symbol = MACRO_FOR;
    return true;
  }
  if (!valid[BARE_MACRO]) return false;
  if (!lexer->eof(lexer) && lexer->lookahead != '\n') {
    /* `else` on the same line: `if (i) KEYSET10 else KEYSET00`; a loop keyword: `UNROLL for
     * (...)`, a macro for an unroll pragma or attribute before the loop it hints */
    char next[8];
    unsigned k = 0;
    while (is_word(lexer->lookahead) && !lexer->eof(lexer)) {
      if (k + 1 >= sizeof next) return false;
      next[k++] = (char)lexer->lookahead;
      advance(lexer);
    }
    next[k] = 0;
    if (strcmp(next, "else") && strcmp(next, "for") && strcmp(next, "while") && strcmp(next, "do")) return false;
    lexer->result_symbol = BARE_MACRO;
    return true;
  }
  /* At the end of its line: the code that comes next must not continue the name. A
   * directive that ends the branch (`#endif`, `#else`, `#elif`) ends the statement too;
   * past any other directive line (`#if X`, `#define`), the next code decides, so that
   * `t_helper` followed by `#if A` and `= f(x)` stays an assignment. */
  for (;;) {
    if (!skip_blank_and_comments(lexer, false)) return false;
    if (lexer->lookahead != '#' || lexer->eof(lexer)) break;
    advance(lexer);
    while (is_hspace(lexer->lookahead)) advance(lexer);
    char name[16];
    read_name(lexer, name, sizeof name);
    DirectiveKind kind = classify(name);
    if (kind == D_ALT || kind == D_END) {
      lexer->result_symbol = BARE_MACRO;
      return true;
    }
    consume_line(lexer);
  }
  int32_t c = lexer->lookahead;
  if (!lexer->eof(lexer) && !is_word_start(c) && c != '{' && c != '}') return false;
  lexer->result_symbol = BARE_MACRO;
  return true;
}

/* More names spelled as macros are, blanks and comments between, then `)` (or `,` where
 * `comma`): the names after a first pack (`SAMPLER_PARAM FILM_PARAM)`), each a pack of its own. */
static bool packs_then_close(TSLexer *lexer, bool comma) {
  while (is_word_start(lexer->lookahead) && !lexer->eof(lexer)) {
    bool capital = false;
    while (is_word(lexer->lookahead) && !lexer->eof(lexer)) {
      int32_t c = lexer->lookahead;
      if (c >= 'a' && c <= 'z') return false;
      if (c >= 'A' && c <= 'Z') capital = true;
      advance(lexer);
    }
    if (!capital || !skip_blank_and_comments(lexer, false)) return false;
  }
  return (lexer->lookahead == ')' || (comma && lexer->lookahead == ',')) && !lexer->eof(lexer);
}

/* `EXTRA_ARGS)` or `UNUSED =`: see the header (lookahead on the name's first character). */
static bool scan_macro_pack(TSLexer *lexer, const bool *valid, bool capital) {
  while (is_word(lexer->lookahead) && !lexer->eof(lexer)) {
    int32_t c = lexer->lookahead;
    if (c >= 'a' && c <= 'z') return false;
    if (c >= 'A' && c <= 'Z') capital = true;
    advance(lexer);
  }
  if (!capital) return false;
  lexer->mark_end(lexer);
  if (!skip_blank_and_comments(lexer, false)) return false;
  int32_t c = lexer->lookahead;
  if (valid[MACRO_PACK] && (c == ')' || (c == ',' && !valid[ATTRIBUTE_MACRO]))) {
    lexer->result_symbol = MACRO_PACK;  /* `f(pos DIMS, n)`: only where no declarator ends */
    return true;
  }
  if (valid[MACRO_PACK] && is_word_start(c) && packs_then_close(lexer, !valid[ATTRIBUTE_MACRO])) {
    lexer->result_symbol = MACRO_PACK;  /* `f(cfg SAMPLER_PARAM FILM_PARAM)`: the first of several */
    return true;
  }
  if (!valid[ATTRIBUTE_MACRO] || lexer->eof(lexer)) return false;
  if (c == '=') {
    advance(lexer);
    if (lexer->lookahead == '=') return false;
  } else if (c != ',' && c != ';' && c != ')') {
    return false;
  }
  lexer->result_symbol = ATTRIBUTE_MACRO;
  return true;
}

static enum TokenType alt_token(const char *name) {
  if (!strcmp(name, "elif")) return PP_ELIF;
  if (!strcmp(name, "elifdef")) return PP_ELIFDEF;
  if (!strcmp(name, "elifndef")) return PP_ELIFNDEF;
  return PP_ELSE;
}

void *tree_sitter_opencl_external_scanner_create(void) {
  Scanner *s = (Scanner *)calloc(1, sizeof(Scanner));
  return s;
}

void tree_sitter_opencl_external_scanner_destroy(void *payload) { free(payload); }

unsigned tree_sitter_opencl_external_scanner_serialize(void *payload, char *buffer) {
  Scanner *s = (Scanner *)payload;
  buffer[0] = (char)s->depth;
  buffer[1] = (char)s->pending_text;
  buffer[2] = (char)s->skip_branches;
  buffer[3] = (char)s->assumed_count;
  unsigned size = s->assumed_count * (unsigned)sizeof(Assumption);
  memcpy(buffer + 4, s->assumed, size);
  memcpy(buffer + 4 + size, s->modes, s->depth);
  return 4u + size + s->depth;
}

void tree_sitter_opencl_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  Scanner *s = (Scanner *)payload;
  s->depth = 0;
  s->pending_text = false;
  s->skip_branches = 0;
  s->assumed_count = 0;
  if (length >= 4) {
    s->pending_text = buffer[1] != 0;
    s->skip_branches = (uint8_t)buffer[2];
    s->assumed_count = (uint8_t)buffer[3];
    if (s->assumed_count > MAX_ASSUMED) s->assumed_count = MAX_ASSUMED;
    unsigned size = s->assumed_count * (unsigned)sizeof(Assumption);
    if (4 + size > length) {
      s->assumed_count = 0;
      size = 0;
    }
    memcpy(s->assumed, buffer + 4, size);
    s->depth = (uint8_t)buffer[0];
    if (s->depth > length - 4 - size) s->depth = (uint8_t)(length - 4 - size);
    memcpy(s->modes, buffer + 4 + size, s->depth);
  }
}

bool tree_sitter_opencl_external_scanner_scan(void *payload, TSLexer *lexer, const bool *valid) {
  Scanner *s = (Scanner *)payload;
  if (valid[ERROR_SENTINEL]) return false; /* error recovery: let the internal lexer work */

  if (s->pending_text) {
    s->pending_text = false;
    while (is_hspace(lexer->lookahead)) skip(lexer);
    consume_line(lexer);
    lexer->mark_end(lexer);
    lexer->result_symbol = PREPROC_CONDITIONAL_TEXT;
    return true;
  }
  if (s->skip_branches) return scan_skipped_branches(s, lexer);

  if (valid[PP_NEWLINE]) {
    while (is_hspace(lexer->lookahead)) skip(lexer);
    if (lexer->lookahead == '\r') skip(lexer);
    if (lexer->lookahead == '\n' || lexer->eof(lexer)) {
      if (!lexer->eof(lexer)) advance(lexer);
      lexer->mark_end(lexer);
      lexer->result_symbol = PP_NEWLINE;
      return true;
    }
  }

  while (is_hspace(lexer->lookahead) || lexer->lookahead == '\n' || lexer->lookahead == '\r') skip(lexer);
  if (lexer->lookahead == 'R' && (valid[RAW_STRING_MARKER] || valid[BARE_MACRO])) {
    advance(lexer);
    if (lexer->lookahead == '"') return valid[RAW_STRING_MARKER] && scan_raw_open(lexer);
    if (valid[BARE_MACRO] || valid[MACRO_FOR]) return scan_bare_macro(lexer, valid, "R");
    return (valid[MACRO_PACK] || valid[ATTRIBUTE_MACRO]) && scan_macro_pack(lexer, valid, true);
  }
  if (valid[RAW_STRING_MARKER] && lexer->lookahead == ')') return scan_raw_close(lexer);
  if ((valid[BARE_MACRO] || valid[MACRO_FOR]) && is_word_start(lexer->lookahead))
    return scan_bare_macro(lexer, valid, "");
  if ((valid[MACRO_PACK] || valid[ATTRIBUTE_MACRO]) && is_word_start(lexer->lookahead))
    return scan_macro_pack(lexer, valid, false);
  if (lexer->lookahead != '#') return false;
  advance(lexer);
  while (is_hspace(lexer->lookahead)) advance(lexer);
  char name[16];
  read_name(lexer, name, sizeof name);
  if (!strcmp(name, "pragma")) return scan_pragma(lexer, valid);
  DirectiveKind kind = classify(name);

  switch (kind) {
    case D_OPEN:
      return scan_open(s, lexer, valid, name);
    case D_ALT: {
      uint8_t mode = top(s);
      enum TokenType token = alt_token(name);
      if (mode == MODE_STRUCT && valid[token]) {
        lexer->result_symbol = token;
        return true;
      }
      if (mode == MODE_ZERO) {
        /* `#if 0 ... #else`: the #else branch is read */
        lexer->mark_end(lexer);
        s->modes[s->depth - 1] = MODE_EXTRA;
        s->pending_text = true;
        lexer->result_symbol = PREPROC_CONDITIONAL;
        return true;
      }
      /* EXTRA (or a structural group the parser cannot continue here) */
      skip_to_endif(lexer, kind);
      lexer->mark_end(lexer);
      pop(s);
      lexer->result_symbol = PREPROC_SKIPPED;
      return true;
    }
    case D_END: {
      uint8_t mode = top(s);
      if (mode == MODE_STRUCT && valid[PP_ENDIF]) {
        pop(s);
        lexer->result_symbol = PP_ENDIF;
        return true;
      }
      pop(s);
      lexer->mark_end(lexer);
      s->pending_text = true;
      lexer->result_symbol = PREPROC_CONDITIONAL;
      return true;
    }
    default:
      return false;
  }
}
