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
 *  - ZERO: `#if 0`: the first branch is skipped and a later branch, if any, is read.
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
  ERROR_SENTINEL,
};

enum Mode { MODE_STRUCT = 1, MODE_EXTRA = 2, MODE_ZERO = 3 };

#define MAX_DEPTH 200
/* A structural decision looks ahead at most this many characters. */
#define MAX_LOOKAHEAD 400000

typedef struct {
  uint8_t depth;
  bool pending_text; /* rest of an EXTRA directive line still to be emitted */
  uint8_t modes[MAX_DEPTH];
} Scanner;

static void advance(TSLexer *lexer) { lexer->advance(lexer, false); }
static void skip(TSLexer *lexer) { lexer->advance(lexer, true); }
static bool is_hspace(int32_t c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }
static bool is_word(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
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
      if (lexer->lookahead == '\r') advance(lexer);
      if (lexer->lookahead == '\n') advance(lexer);
      continue;
    }
    if (c == '/') {
      advance(lexer);
      if (lexer->lookahead == '*') {
        advance(lexer);
        int32_t prev = 0;
        while (!lexer->eof(lexer) && !(prev == '*' && lexer->lookahead == '/')) {
          prev = lexer->lookahead;
          advance(lexer);
        }
        if (!lexer->eof(lexer)) advance(lexer);
      } else if (lexer->lookahead == '/') {
        while (!lexer->eof(lexer) && lexer->lookahead != '\n') {
          if (lexer->lookahead == '\\') advance(lexer);
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
 * after the '#' and name of that directive and reports its kind in *kind.
 *
 * When `check` is set, also reports whether the walked branch looks like a run of
 * complete items: brackets balanced and the last code character one of ; } ,
 * (or no code at all). Only the first branch of nested groups is counted.
 */
static bool walk_branch(TSLexer *lexer, DirectiveKind *kind, bool check, unsigned *budget) {
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
            if (lexer->lookahead == '\\') advance(lexer);
            if (!lexer->eof(lexer)) advance(lexer);
          }
        } else {
          advance(lexer);
          int32_t prev = 0;
          while (!lexer->eof(lexer) && !(prev == '*' && lexer->lookahead == '/')) {
            prev = lexer->lookahead;
            advance(lexer);
          }
          if (!lexer->eof(lexer)) advance(lexer);
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
  *kind = D_END;
  if (check && (paren || brace || bracket)) ok = false;
  return ok;
}

/* Skips branches until the matching `#endif` line has been consumed (or EOF).
 * Called with the lexer just after the name of an `#elif`/`#else`/`#endif`. */
static void skip_to_endif(TSLexer *lexer, DirectiveKind kind) {
  unsigned budget = UINT32_MAX;
  while (kind != D_END && !lexer->eof(lexer)) {
    consume_line(lexer);
    walk_branch(lexer, &kind, false, &budget);
  }
  consume_line(lexer);
}

/* True when the condition on the rest of this `#if` line is the literal 0. */
static bool condition_is_zero(TSLexer *lexer) {
  while (is_hspace(lexer->lookahead)) advance(lexer);
  if (lexer->lookahead != '0') return false;
  advance(lexer);
  while (is_hspace(lexer->lookahead) || lexer->lookahead == '\r') advance(lexer);
  return lexer->lookahead == '\n' || lexer->lookahead == '/' || lexer->eof(lexer);
}

static bool push(Scanner *s, uint8_t mode) {
  if (s->depth < MAX_DEPTH) s->modes[s->depth++] = mode;
  return true;
}

static uint8_t top(Scanner *s) { return s->depth ? s->modes[s->depth - 1] : 0; }
static void pop(Scanner *s) {
  if (s->depth) s->depth--;
}

static bool scan_open(Scanner *s, TSLexer *lexer, const bool *valid, const char *name) {
  enum TokenType token = !strcmp(name, "if") ? PP_IF : !strcmp(name, "ifdef") ? PP_IFDEF : PP_IFNDEF;
  lexer->mark_end(lexer);  /* both the structural and the EXTRA token end after the name */

  if (token == PP_IF && condition_is_zero(lexer)) {
    consume_line(lexer);
    unsigned budget = UINT32_MAX;
    DirectiveKind kind;
    walk_branch(lexer, &kind, false, &budget);
    if (kind == D_END) {
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

  if (valid[token]) {
    consume_line(lexer);
    unsigned budget = MAX_LOOKAHEAD;
    bool complete = true;
    DirectiveKind kind = D_ALT;
    while (complete && kind == D_ALT) {
      complete = walk_branch(lexer, &kind, true, &budget);
      if (kind == D_ALT) consume_line(lexer);
    }
    if (complete) {
      push(s, MODE_STRUCT);
      lexer->result_symbol = token;
      return true;
    }
  }
  push(s, MODE_EXTRA);
  s->pending_text = true;
  lexer->result_symbol = PREPROC_CONDITIONAL;
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

/* Delimiter characters of a raw string marker: a C++ delimiter may use more, real
 * kernel files use none or a word (`R"CLC(`). */
#define MAX_RAW_DELIMITER 16

/* Skips blanks, newlines and comments. Returns false at other code. */
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
        int32_t prev = 0;
        while (!lexer->eof(lexer) && !(prev == '*' && lexer->lookahead == '/')) {
          prev = lexer->lookahead;
          advance(lexer);
        }
        if (lexer->eof(lexer)) return false;
        advance(lexer);
      } else {
        return false;
      }
    } else {
      return false;
    }
  }
}

/* `R"delim(` at the end of its line (lookahead on `R`). */
static bool scan_raw_open(TSLexer *lexer) {
  advance(lexer);
  if (lexer->lookahead != '"') return false;
  advance(lexer);
  for (unsigned n = 0; lexer->lookahead != '('; n++) {
    if (n == MAX_RAW_DELIMITER || !is_word(lexer->lookahead)) return false;
    advance(lexer);
  }
  advance(lexer);
  lexer->mark_end(lexer);
  if (!skip_blank_and_comments(lexer, true)) return false;
  lexer->result_symbol = RAW_STRING_MARKER;
  return true;
}

/* `)delim"` followed by nothing but blanks and comments (lookahead on `)`). */
static bool scan_raw_close(TSLexer *lexer) {
  advance(lexer);
  for (unsigned n = 0; lexer->lookahead != '"'; n++) {
    if (n == MAX_RAW_DELIMITER || !is_word(lexer->lookahead)) return false;
    advance(lexer);
  }
  advance(lexer);
  lexer->mark_end(lexer);
  if (!skip_blank_and_comments(lexer, false) || !lexer->eof(lexer)) return false;
  lexer->result_symbol = RAW_STRING_MARKER;
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
  memcpy(buffer + 2, s->modes, s->depth);
  return 2u + s->depth;
}

void tree_sitter_opencl_external_scanner_deserialize(void *payload, const char *buffer, unsigned length) {
  Scanner *s = (Scanner *)payload;
  s->depth = 0;
  s->pending_text = false;
  if (length >= 2) {
    s->depth = (uint8_t)buffer[0];
    s->pending_text = buffer[1] != 0;
    if (s->depth > length - 2) s->depth = (uint8_t)(length - 2);
    memcpy(s->modes, buffer + 2, s->depth);
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
  if (valid[RAW_STRING_MARKER]) {
    if (lexer->lookahead == 'R') return scan_raw_open(lexer);
    if (lexer->lookahead == ')') return scan_raw_close(lexer);
  }
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
