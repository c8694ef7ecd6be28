/**
 * @file OpenCL C grammar for tree-sitter, extending tree-sitter-c.
 *
 * Only OpenCL additions live here; the C language comes from `tree-sitter-c`
 * (pinned in package.json). Every override keeps the C rule as its first choice.
 * @license MIT
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const C = require('tree-sitter-c/grammar');

const {PREC, preprocessor, commaSep, commaSep1} = C;

// (`quad`, which OpenCL C reserves for a future type, is no keyword to clang: code names
// variables with it, so it stays an identifier)
const SCALARS = ['half', 'uchar', 'ushort', 'uint', 'ulong'];
const VECTOR_BASES = ['char', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong',
  'float', 'double', 'half', 'bool'];
const VECTOR_SIZES = [2, 3, 4, 8, 16];
const OPAQUE_TYPES = [
  'image1d_t', 'image1d_array_t', 'image1d_buffer_t', 'image2d_t', 'image2d_array_t',
  'image2d_depth_t', 'image2d_array_depth_t', 'image2d_msaa_t', 'image2d_array_msaa_t',
  'image2d_msaa_depth_t', 'image2d_array_msaa_depth_t', 'image3d_t',
  'sampler_t', 'event_t', 'clk_event_t', 'ndrange_t', 'queue_t', 'reserve_id_t',
  'cl_mem_fence_flags', 'memory_order', 'memory_scope',
  'atomic_int', 'atomic_uint', 'atomic_long', 'atomic_ulong', 'atomic_float',
  'atomic_double', 'atomic_half', 'atomic_intptr_t', 'atomic_uintptr_t', 'atomic_size_t',
  'atomic_ptrdiff_t', 'atomic_flag',
];

module.exports = grammar(C, {
  name: 'opencl',

  // See src/scanner.c: conditional directives are structured where they can be,
  // otherwise read with their first branch taken. The scanner also reads the start
  // of `#pragma` lines, which keeps the generated lexer small.
  externals: $ => [
    $._pp_if, $._pp_ifdef, $._pp_ifndef,
    $._pp_elif, $._pp_elifdef, $._pp_elifndef, $._pp_else, $._pp_endif,
    $._pp_newline,
    $.preproc_conditional,
    $.preproc_conditional_text,
    $.preproc_skipped,
    $._pragma_directive,
    $._pragma_opencl_extension,
    $._pragma_opencl_fp_contract,
    $._pragma_unroll,
    $.raw_string_marker,
    $._bare_macro,
    $._macro_for,
    $._macro_pack,
    $._attribute_macro,
    $._error_sentinel,
  ],

  // `raw_string_marker`: the `R"(` and `)"` lines of a kernel file written to be
  // #included into C++ as one raw string literal (see src/scanner.c).
  // A backslash, blanks, then a newline is a line splice too (clang-19 warns and joins the lines).
  extras: ($, original) => original.concat([
    /\\[ \t\f\v]+\r?\n/,
    $.preproc_conditional,
    $.preproc_conditional_text,
    $.preproc_skipped,
    $.raw_string_marker,
  ]),

  conflicts: ($, original) => original.concat([
    [$.type_specifier, $.expression, $.macro_type_specifier, $.macro_modifier],
    [$.type_specifier, $.macro_modifier],
    [$.sized_type_specifier, $.macro_modifier],
    [$.type_specifier, $.expression, $.macro_type_specifier, $.macro_modifier],
    [$.pragma_statement, $._pragma],
    [$._declarator, $.macro_modifier],
    [$.type_specifier, $.macro_type_specifier, $.macro_modifier],
    [$.type_descriptor, $.macro_type_argument],
    [$.type_specifier, $.macro_type_argument],
    [$.attributed_declarator, $.macro_declarator],
    [$._field_declarator, $.macro_modifier],
    [$._declarator, $.type_specifier, $.macro_type_specifier, $.macro_modifier],
    [$._declarator, $.type_specifier, $.macro_modifier],
    [$._declaration_specifiers, $.macro_declarator],
    [$.attributed_field_declarator, $.macro_field_declarator],
    [$.comma_expression, $.vector_literal],
    [$.type_specifier, $.sized_type_specifier, $.macro_modifier],
    [$.type_specifier, $.macro_type_specifier, $._macro_type_call],
    [$._declarator, $.type_specifier, $.macro_type_specifier, $._macro_type_name_call, $.macro_modifier],
    [$.type_specifier, $.macro_type_name_parts],
    [$.type_specifier, $.macro_type_specifier, $._macro_type_name_call],
    [$._declaration_specifiers, $._macro_typed_function_definition],
    [$._declarator, $._declaration_declarator],
    // `F(const, x)` or `F(const int, x)`: qualifiers alone, or before a type
    [$.macro_type_argument],
  ]),

  rules: {
    // ---- Qualifiers and specifiers -------------------------------------------------

    type_qualifier: ($, original) => choice(
      original,
      $.address_space_qualifier,
      $.access_qualifier,
    ),

    address_space_qualifier: _ => choice(
      '__global', 'global',
      '__local', 'local',
      '__constant', 'constant',
      '__private', 'private',
      '__generic', 'generic',
    ),

    access_qualifier: _ => choice(
      '__read_only', 'read_only',
      '__write_only', 'write_only',
      '__read_write', 'read_write',
    ),

    kernel_specifier: _ => choice('__kernel', 'kernel'),

    _declaration_modifiers: ($, original) => choice(
      original,
      $.kernel_specifier,
      $.pipe_qualifier,
    ),

    // Macros may stand before the type (`KERNEL_FQ void k(...)`); after the type
    // they are read as part of the declarator (see `_declarator`), because there an
    // identifier may as well be the declared name.
    _declaration_specifiers: $ => prec.right(seq(
      repeat(choice($._declaration_modifiers, $.macro_modifier)),
      field('type', $.type_specifier),
      repeat($._declaration_modifiers),
    )),

    // A definition whose return type a function-like macro's call writes (`inline const
    // VEC_DATA_TYPE(uchar, 4) f(...) {`, a vector type pasted from its parts), as a typedef's
    // may (below). Only at file scope, after a keyword (`inline`, `static`, a qualifier, an
    // attribute), and where a body follows: lines of bare macro calls (`ALL(CXA)` then
    // `ALLI(FOA)`, or `M(0) M(1)` among statements) would each read as a type and a
    // declarator too, and such readings crowd out the parser's right one.
    _macro_typed_function_definition: $ => prec.dynamic(-1, seq(
      repeat1($._declaration_modifiers),
      $._macro_typed_specifiers,
      field('declarator', $._declarator),
      field('body', $.compound_statement),
    )),
    _macro_typed_specifiers: $ => prec.right(seq(
      field('type', alias($._macro_type_name_call, $.macro_type_specifier)),
      repeat($._declaration_modifiers),
    )),
    // Such a call's arguments are the parts of a type's name: names, types, numbers
    // (`VEC(uchar, 4)`, `CAT(DATA_TYPE, N)`); a string (`AATTR("x")`) writes an attribute.
    _macro_type_name_call: $ => seq(
      field('name', $.identifier),
      field('arguments', alias($.macro_type_name_parts, $.argument_list)),
    ),
    macro_type_name_parts: $ => seq(
      '(',
      commaSep1(choice($.identifier, $.number_literal, $.primitive_type)),
      ')',
    ),

    // `typedef GLOBAL_AS float *gptr;`: the same macros before a typedef's type;
    // `typedef CAT(Dtype, 4) Dtype4;`, a function-like macro that makes the type name;
    // and attributes on either side of the type, as clang's own OpenCL tests write vector
    // types (`typedef __attribute__((ext_vector_type(4))) int int4;`).
    _type_definition_type: $ => seq(
      repeat(choice($.type_qualifier, $.macro_modifier, $.attribute_specifier)),
      field('type', choice($.type_specifier, alias($._macro_type_call, $.macro_type_specifier))),
      repeat(choice($.type_qualifier, $.attribute_specifier)),
    ),
    _macro_type_call: $ => prec.dynamic(-1, seq(
      field('name', $.identifier),
      field('arguments', $.argument_list),
    )),

    // `const float gmx_unused x`, `u32 MAYBE_UNUSED *p`; and clang's block pointers
    // (`int (^b)(int)`, 6.14), written like function pointers with `^` for `*`.
    _declarator: ($, original) => choice(original, $.macro_declarator, $.block_pointer_declarator),
    _field_declarator: ($, original) => choice(original, alias($.macro_field_declarator, $.macro_declarator),
      alias($.block_pointer_field_declarator, $.block_pointer_declarator)),
    _declaration_declarator: ($, original) => choice(original, $.macro_declarator, $.block_pointer_declarator),
    _type_declarator: ($, original) => choice(original,
      alias($.block_pointer_type_declarator, $.block_pointer_declarator)),
    _abstract_declarator: ($, original) => choice(original, $.abstract_block_pointer_declarator),

    block_pointer_declarator: $ => prec.dynamic(1, prec.right(seq(
      '^', repeat($.type_qualifier), field('declarator', $._declarator)))),
    block_pointer_field_declarator: $ => prec.dynamic(1, prec.right(seq(
      '^', repeat($.type_qualifier), field('declarator', $._field_declarator)))),
    block_pointer_type_declarator: $ => prec.dynamic(1, prec.right(seq(
      '^', repeat($.type_qualifier), field('declarator', $._type_declarator)))),
    abstract_block_pointer_declarator: $ => prec.dynamic(1, prec.right(seq(
      '^', repeat($.type_qualifier), field('declarator', optional($._abstract_declarator))))),

    // `__global Foo *__attribute__((aligned(16))) p`: GNU attributes after a pointer's `*`,
    // beside its qualifiers.
    pointer_declarator: $ => prec.dynamic(1, prec.right(seq(
      optional($.ms_based_modifier), '*', repeat($.ms_pointer_modifier),
      repeat(choice($.type_qualifier, $.attribute_specifier)),
      field('declarator', $._declarator)))),
    pointer_field_declarator: $ => prec.dynamic(1, prec.right(seq(
      optional($.ms_based_modifier), '*', repeat($.ms_pointer_modifier),
      repeat(choice($.type_qualifier, $.attribute_specifier)),
      field('declarator', $._field_declarator)))),
    pointer_type_declarator: $ => prec.dynamic(1, prec.right(seq(
      optional($.ms_based_modifier), '*', repeat($.ms_pointer_modifier),
      repeat(choice($.type_qualifier, $.attribute_specifier)),
      field('declarator', $._type_declarator)))),
    abstract_pointer_declarator: $ => prec.dynamic(1, prec.right(seq(
      '*', repeat($.ms_pointer_modifier),
      repeat(choice($.type_qualifier, $.attribute_specifier)),
      field('declarator', optional($._abstract_declarator))))),

    macro_declarator: $ => prec.dynamic(-2, seq(
      field('macro', $.macro_modifier),
      field('declarator', $._declarator),
    )),
    macro_field_declarator: $ => prec.dynamic(-2, seq(
      field('macro', $.macro_modifier),
      field('declarator', $._field_declarator),
    )),

    pipe_qualifier: _ => 'pipe',

    // A macro used where qualifiers or attributes go: `KERNEL_FQ`, `DECLSPEC`,
    // `gmx_unused`. Lowest dynamic precedence, so a plain identifier is a type
    // whenever that reading works. A bare name only: with an optional argument list,
    // every call statement `f(a, b);` also started a declaration `F(x) T y;`, and the
    // parser carried that extra version through each call. A macro with arguments
    // before a declaration, `INLINE_ATTR(always) u32 f(...)`, reads as a
    // `macro_invocation` followed by the declaration.
    macro_modifier: $ => prec.dynamic(-2, field('name', $.identifier)),

    storage_class_specifier: ($, original) => choice(
      original,
      '__inline',
    ),

    primitive_type: ($, original) => choice(
      original,
      token(choice(
        ...SCALARS,
        ...VECTOR_BASES.flatMap(base => VECTOR_SIZES.map(n => `${base}${n}`)),
        ...OPAQUE_TYPES,
      )),
    ),

    // `SIMPLE_TEST(uint)` or `REPLACE_DOT_BY_LEN (0)` on its own, without `;`: a
    // macro that expands to whole declarations or statements. It is a call
    // expression standing where a statement or declaration goes (see `_block_item`),
    // so the parser reads `F(a, b)` once, whatever follows it; the callee is its
    // `function` field, as in a call. Static precedence -1: when the next statement
    // starts with a token that can continue an expression (`(`, `[`, `++`, `-`, `*`),
    // the two read as one expression (`F(a) (b)` is a call of a call); keeping both
    // readings alive would fork the parser after every call statement.
    _macro_invocation: $ => prec(-1, prec.dynamic(-1, alias($.call_expression, $.macro_invocation))),

    // Macro arguments may be type names: `SIMPLE_TEST(uint)`, `DEFINE_OP(float4, +)`.
    // Only type names that cannot be expressions, so that `F(a, b, c)` stays one
    // reading (an identifier argument is an expression).
    // One argument-list rule for calls and macros, so the parser's versions for
    // `F(a, b)` (call, macro type specifier) can merge while reading it.
    // `f(a, b EXTRA_ARGS)`: an object-like macro after the last argument, with no comma,
    // that expands to more arguments (or to none): a `macro_argument_pack`. The scanner
    // reads one only for a name spelled as macros are (capitals, digits, `_`) right before
    // the `)`, so `float gmx_unused x)` keeps `gmx_unused` a macro before the declarator.
    //
    // A macro argument may also be empty (`M(x, )`, `F(, a)`), an operator alone
    // (`DEF_BINARY(add, +)`), or a parameter declaration (`DEFINE_KERNEL(copy, __global
    // float *in, ...)`, see `macro_type_argument`). The arguments are written as those
    // followed by a comma, then the last one: a macro pack may follow only an argument
    // that is not empty, so `f(a, N)` keeps N an argument. A pack before a comma
    // (`OutsideImage(pos DIMS, size)`, `#define DIMS , step, width`) expands to arguments
    // between two; the scanner reads one there only where no declarator may end (see
    // src/scanner.c), so `__global float *in UNUSED, int n` keeps its attribute macro.
    argument_list: $ => seq(
      '(',
      repeat(seq(optional(choice($._argument, seq($._argument_value, repeat1($.macro_argument_pack)))), ',')),
      optional(choice(seq($._argument_value, repeat($.macro_argument_pack)), $.macro_operator_argument)),
      ')',
    ),
    _argument_value: $ => choice(
      $.expression,
      alias($.macro_type_argument, $.type_descriptor),
      $.compound_statement,
    ),
    _argument: $ => choice($._argument_value, $.macro_operator_argument),
    macro_operator_argument: _ => choice(
      '+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^', '&&', '||', '!', '~',
      '<', '>', '<=', '>=', '==', '!=',
      '=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '|=', '^=',
    ),
    // Lowest dynamic precedence: where the code reads another way too (`(T)N)` as a cast),
    // that reading wins.
    macro_argument_pack: $ => prec.dynamic(-1, $._macro_pack),
    // `int x UNUSED = 1;`, `__global float *p MAYBE_UNUSED, int n`: an object-like macro
    // after a declarator (an attribute, as `__attribute__((unused))` may stand there). The
    // scanner reads one only for a name spelled as macros are, followed by `=`, `,`, `;` or
    // `)`, so `float gmx_unused x` keeps the macro before the name (see src/scanner.c).
    _trailing_macro: $ => alias($._trailing_macro_modifier, $.macro_modifier),
    _trailing_macro_modifier: $ => field('name', alias($._attribute_macro, $.identifier)),
    macro_parameter_pack: $ => prec.dynamic(-1, $._macro_pack),

    // A type name, or qualifiers alone (`F(x, __constant, p)`, `__attribute__((const))`),
    // where a qualifier may also be a macro (`md5(MAYBE_VOLATILE uint, W)`).
    macro_type_argument: $ => choice(
      seq(
        repeat(choice($.type_qualifier, $.macro_modifier)),
        field('type', choice($.primitive_type, $.sized_type_specifier, $.struct_specifier,
          $.union_specifier, $.enum_specifier)),
        repeat($.type_qualifier),
        field('declarator', optional(choice($._abstract_declarator, $._declarator))),
      ),
      prec.right(repeat1($.type_qualifier)),
    ),

    // A name after the type is the declarator (`int EXTRA` declares EXTRA), never a pack
    // after an unnamed parameter. `void g(int x EXTRA_PARAMS)`: a macro pack may follow a
    // parameter's declarator (not a bare type, so `long N)` and `float *C)` stay parameters
    // named N and C).
    // A parameter's type may be a macro's call as a definition's return type may
    // (`const VEC_DATA_TYPE(float, 2) a`), where a declarator names the parameter.
    parameter_declaration: $ => choice(
      prec.right(seq(
        $._declaration_specifiers,
        optional(choice(
          seq(field('declarator', $._declarator), optional(choice(repeat1($.macro_parameter_pack), $._trailing_macro))),
          field('declarator', $._abstract_declarator),
        )),
        repeat($.attribute_specifier),
      )),
      prec.dynamic(-1, seq(repeat($._declaration_modifiers), $._macro_typed_specifiers,
        field('declarator', $._declarator))),
    ),

    // `#define make_short2(x...) ((short2)(x))`: GNU named variadic parameters.
    preproc_params: $ => seq(
      token.immediate('('),
      commaSep(choice($.identifier, '...', seq($.identifier, '...'))),
      ')',
    ),

    // A macro body runs to the end of the line and its continuations, comments
    // included (tree-sitter-c stops at `/*`, and the rest of the body spills into code).
    // It may end with `/` (`1 // (a) /`, or `#define DIV /`).
    // A continuation may have blanks between the backslash and the newline, as clang-19 reads it.
    preproc_arg: _ => token(prec(-1, /\S([^/\n]|\/[^*\n]|\/\*([^*]|\*+[^*/])*\*+\/|\\[ \t\f\v]*\r?\n)*\/?/)),

    // A `//` comment goes on past a backslash-newline, blanks between them included, as
    // clang-19 splices the lines before it reads the comment.
    comment: _ => token(choice(
      seq('//', /(\\+(.|[ \t\f\v]*\r?\n)|[^\\\n])*/),
      seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/'),
    )),

    // `if (m) #pragma unroll for (...)`: a loop pragma where a statement goes; and a bare
    // macro used as a statement with no `;` (`FA_UNROLL` before a loop, `if (i) KEYSET10
    // else KEYSET00`, `DES_bs_clear_block` before `}`). The scanner reads a name as one only
    // where what follows cannot continue it (see src/scanner.c).
    // A macro call without `;` stands for statements wherever one may (`if (c) APPLY(p, c)`
    // and the next statement on the following line), not only among a block's items.
    _non_case_statement: ($, original) => choice(original, $.pragma_statement, $.macro_statement, $._macro_invocation),
    macro_statement: $ => field('macro', alias($._bare_macro, $.identifier)),
    // `unroll_for (int i = 0; i < n; i++)`, `LOOP (;;)`: a macro standing for the `for`
    // keyword (`#define unroll_for __attribute__((opencl_unroll_hint)) for`). The scanner
    // reads the name as one where a `;` follows inside the parentheses: no call reads so.
    for_statement: ($, original) => choice(
      original,
      seq(field('macro', alias($._macro_for, $.identifier)), '(', $._for_statement_body, ')', field('body', $.statement)),
    ),
    pragma_statement: $ => prec.dynamic(-1, seq(
      field('pragma', choice($.unroll_pragma, $.preproc_pragma)),
      field('body', $.statement),
    )),

    // ---- Declarations with attributes after declarators ----------------------------

    declaration: $ => seq(
      $._declaration_specifiers,
      // a macro after an initializer would end its expression (`= a / (T)N;`): only
      // after a declarator without one (before `=` it is part of `init_declarator`)
      commaSep1(choice(
        seq(
          field('declarator', seq(
            optional($.ms_call_modifier),
            $._declaration_declarator,
            optional($.gnu_asm_expression),
          )),
          repeat(choice($.attribute_specifier, $._trailing_macro)),
        ),
        seq(field('declarator', $.init_declarator), repeat($.attribute_specifier)),
      )),
      ';',
    ),

    // `__attribute__((opencl_unroll_hint(4))) for (...)`
    attributed_statement: ($, original) => choice(
      original,
      seq(repeat1($.attribute_specifier), $.statement),
    ),

    // tree-sitter-c's identifier tests every character against Unicode's XID classes
    // (a binary search over ~700 ranges in the generated lexer, per character). Here
    // ASCII letters, digits, `_` and `$` are tested directly and any non-ASCII
    // character but the no-break space counts as part of an identifier: C accepts
    // extended characters in identifiers, and outside strings and comments they
    // appear nowhere else. A no-break space (pasted code) stays an error, as it is
    // for compilers; a longer list of excluded characters would bring the binary
    // search back.
    identifier: _ => {
      const char = /[^\x00-\x7F\u00A0]/;
      const ucn = /\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}/;
      return new RegExp(
        `([a-zA-Z_$]|${char.source}|${ucn.source})([a-zA-Z0-9_$]|${char.source}|${ucn.source})*`);
    },

    // ---- Expressions ---------------------------------------------------------------

    _expression_not_binary: ($, original) => choice(
      original,
      $.vector_literal,
      $.block_literal,
      $.macro_call_sequence,
      alias($._type_argument_call, $.call_expression),
    ),

    // `__builtin_astype(q, __global T *)`, `__builtin_convertvector(v, float4)`: clang's
    // built-ins whose second argument is a type, which device libraries call directly.
    _type_argument_call: $ => seq(
      field('function', alias(choice('__builtin_astype', '__builtin_convertvector'), $.identifier)),
      field('arguments', alias($._type_arguments, $.argument_list)),
    ),
    _type_arguments: $ => seq('(', $.expression, ',', $.type_descriptor, ')'),

    // `FN(add) ARGS(x, y)`: function-like macros side by side in an expression, one
    // expanding to a callee and the next to its arguments (or `STR(a) STR(b)`, strings
    // that concatenate). Lowest static precedence: where a statement starts, `F(x)` on
    // its own stays a statement macro and `G(y);` the next statement.
    macro_call_sequence: $ => prec.left(-2, seq(
      $.call_expression,
      repeat1(alias($._macro_call, $.call_expression)),
    )),
    _macro_call: $ => prec(1, seq(field('function', $.identifier), field('arguments', $.argument_list))),

    // `"v" STR(VERSION) "\n"`: string literals beside macros that expand to strings.
    concatenated_string: $ => prec.right(seq(
      choice(
        seq($.identifier, $.string_literal),
        seq($.string_literal, $.string_literal),
        seq($.string_literal, $.identifier),
        // below a statement macro's precedence, as `macro_call_sequence`
        prec(-2, seq(choice($.call_expression, $.macro_call_sequence), $.string_literal)),
        seq($.string_literal, alias($._macro_call, $.call_expression)),
      ),
      repeat(choice($.string_literal, $.identifier, alias($._macro_call, $.call_expression))),
    )),

    // `a[i, j]`: a comma expression as the subscript, as C allows.
    subscript_expression: $ => prec(PREC.SUBSCRIPT, seq(
      field('argument', $.expression),
      '[',
      field('index', choice($.expression, $.comma_expression)),
      ']',
    )),

    // `(float4)(1.0f, v.xy, 2)`: a cast applied to a parenthesised list of two or
    // more elements is a vector literal; with one element it stays a cast (splat).
    vector_literal: $ => prec.dynamic(1, prec(PREC.CAST, seq(
      '(',
      field('type', $.type_descriptor),
      ')',
      '(',
      field('element', $.expression),
      repeat1(seq(',', field('element', $.expression))),
      ')',
    ))),

    // `constant float w[4] __attribute__((aligned(16))) = {...};`: GNU attributes between
    // the declarator and its initializer.
    // A function cannot be initialized: its declarator here is the declaration's, without the
    // names tree-sitter-c lets follow a function's parameters (`void f(void) NOEXCEPT`), so
    // `CLEAR_W(n) CLEAR_Z(n) float4 v = ...;` reads as two macro statements and a declaration,
    // not as one declaration of `CLEAR_Z(n) float4 v` of type `CLEAR_W(n)`.
    init_declarator: $ => seq(
      field('declarator', $._declaration_declarator),
      repeat(choice($.attribute_specifier, $._trailing_macro)),
      '=',
      field('value', choice($.initializer_list, $.expression)),
    ),

    // Clang blocks, used with `enqueue_kernel`: `^{ ... }`, `^(local void *p){ ... }`.
    block_literal: $ => prec(PREC.UNARY, seq(
      '^',
      // `^int(int n) { ... }`, `^struct A(struct A a) { ... }`: an explicit return type
      optional(field('type', choice($.primitive_type, $.struct_specifier, $.union_specifier, $.enum_specifier))),
      optional(field('parameters', $.parameter_list)),
      field('body', $.compound_statement),
    )),

    // `1.0h` is a half literal.
    number_literal: _ => {
      const separator = '\'';
      const hex = /[0-9a-fA-F]/;
      const decimal = /[0-9]/;
      const hexDigits = seq(repeat1(hex), repeat(seq(separator, repeat1(hex))));
      const decimalDigits = seq(repeat1(decimal), repeat(seq(separator, repeat1(decimal))));
      return token(seq(
        optional(/[-\+]/),
        optional(choice(/0[xX]/, /0[bB]/)),
        choice(
          seq(
            choice(
              decimalDigits,
              seq(/0[bB]/, decimalDigits),
              seq(/0[xX]/, hexDigits),
            ),
            optional(seq('.', optional(hexDigits))),
          ),
          seq('.', decimalDigits),
        ),
        optional(seq(
          /[eEpP]/,
          optional(seq(
            optional(/[-\+]/),
            hexDigits,
          )),
        )),
        // the rest of a preprocessing number (C11 6.4.8): a suffix, or what makes `0_` or
        // `2x32` one token, as macro arguments pasted with `##` (`ROUND(0_, 0, 3)`)
        /[a-zA-Z0-9_.]*/,
      ));
    },

    // ---- Preprocessor --------------------------------------------------------------

    _top_level_item: ($, original) => choice(original, $._pragma, $._macro_invocation,
      alias($._macro_typed_function_definition, $.function_definition)),
    _block_item: ($, original) => choice(original, $._pragma),
    _field_declaration_list_item: ($, original) => choice(original, $._pragma),
    _pragma: $ => choice(
      $.preproc_pragma,
      $.opencl_extension_pragma,
      $.opencl_fp_contract_pragma,
      $.unroll_pragma,
    ),

    // Pragmas. The leading words are single tokens from the external scanner (not
    // keywords) so that any other pragma still reads as `#pragma` plus its raw argument.
    preproc_pragma: $ => seq(
      alias($._pragma_directive, '#pragma'),
      optional(field('argument', $.preproc_arg)),
      $._pp_newline,
    ),

    // `#pragma OPENCL EXTENSION cl_khr_fp64 : enable`
    opencl_extension_pragma: $ => seq(
      alias($._pragma_opencl_extension, '#pragma OPENCL EXTENSION'),
      field('extension', $.identifier),
      ':',
      field('behavior', $.identifier),
      $._pp_newline,
    ),

    // `#pragma OPENCL FP_CONTRACT ON`
    opencl_fp_contract_pragma: $ => seq(
      alias($._pragma_opencl_fp_contract, '#pragma OPENCL FP_CONTRACT'),
      field('state', $.identifier),
      $._pp_newline,
    ),

    // `#pragma unroll`, `#pragma unroll 4`, `#pragma nounroll`
    unroll_pragma: $ => seq(
      alias($._pragma_unroll, '#pragma unroll'),
      optional(field('count', choice($.number_literal, $.identifier, $.parenthesized_expression))),
      $._pp_newline,
    ),

    // `#include M2S(INCLUDE_PATH/inc_vendor.h)`: a macro-built path stays raw text.
    preproc_include: $ => seq(
      preprocessor('include'),
      field('path', choice(
        $.string_literal,
        $.system_lib_string,
        $.identifier,
        alias($.preproc_call_expression, $.call_expression),
        alias(token(prec(1, /[A-Za-z_]\w*[ \t]*\([^\n]*\)/)), $.preproc_arg),
      )),
      $._pp_newline,
    ),

    preproc_def: $ => seq(
      preprocessor('define'),
      field('name', $.identifier),
      field('value', optional($.preproc_arg)),
      $._pp_newline,
    ),

    preproc_function_def: $ => seq(
      preprocessor('define'),
      field('name', $.identifier),
      field('parameters', $.preproc_params),
      field('value', optional($.preproc_arg)),
      $._pp_newline,
    ),

    preproc_call: $ => seq(
      field('directive', $.preproc_directive),
      field('argument', optional($.preproc_arg)),
      $._pp_newline,
    ),

    ...preprocIf('', $ => $._block_item),
    ...preprocIf('_in_field_declaration_list', $ => $._field_declaration_list_item),
    ...preprocIf('_in_enumerator_list', $ => seq($.enumerator, ',')),
    ...preprocIf('_in_enumerator_list_no_comma', $ => $.enumerator, -1),

    // `(GLOBAL_AS u8 *) p`: macros may stand before the type in a type name too, and
    // so may clang's attributes (`(__attribute__((opencl_global_device)) int *) p`).
    type_descriptor: $ => seq(
      repeat(choice($.type_qualifier, $.macro_modifier, $.attribute_specifier)),
      field('type', $.type_specifier),
      repeat($.type_qualifier),
      field('declarator', optional($._abstract_declarator)),
    ),
  },
});

/**
 * tree-sitter-c's structured conditional groups, with the directive tokens coming
 * from the external scanner.
 *
 * @param {string} suffix
 * @param {RuleBuilder<string>} content
 * @param {number} precedence
 * @returns {RuleBuilders<string, string>}
 */
function preprocIf(suffix, content, precedence = 0) {
  /** @param {GrammarSymbols<string>} $ */
  function alternativeBlock($) {
    return choice(
      suffix ? alias($['preproc_else' + suffix], $.preproc_else) : $.preproc_else,
      suffix ? alias($['preproc_elif' + suffix], $.preproc_elif) : $.preproc_elif,
      suffix ? alias($['preproc_elifdef' + suffix], $.preproc_elifdef) : $.preproc_elifdef,
    );
  }

  return {
    ['preproc_if' + suffix]: $ => prec(precedence, seq(
      alias($._pp_if, '#if'),
      field('condition', $._preproc_expression),
      $._pp_newline,
      repeat(content($)),
      field('alternative', optional(alternativeBlock($))),
      alias($._pp_endif, '#endif'),
    )),

    ['preproc_ifdef' + suffix]: $ => prec(precedence, seq(
      choice(alias($._pp_ifdef, '#ifdef'), alias($._pp_ifndef, '#ifndef')),
      field('name', $.identifier),
      repeat(content($)),
      field('alternative', optional(alternativeBlock($))),
      alias($._pp_endif, '#endif'),
    )),

    ['preproc_else' + suffix]: $ => prec(precedence, seq(
      alias($._pp_else, '#else'),
      repeat(content($)),
    )),

    ['preproc_elif' + suffix]: $ => prec(precedence, seq(
      alias($._pp_elif, '#elif'),
      field('condition', $._preproc_expression),
      $._pp_newline,
      repeat(content($)),
      field('alternative', optional(alternativeBlock($))),
    )),

    ['preproc_elifdef' + suffix]: $ => prec(precedence, seq(
      choice(alias($._pp_elifdef, '#elifdef'), alias($._pp_elifndef, '#elifndef')),
      field('name', $.identifier),
      repeat(content($)),
      field('alternative', optional(alternativeBlock($))),
    )),
  };
}
