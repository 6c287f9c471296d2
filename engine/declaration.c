/*
 * declaration.c: the one wording of a declaration in one line
 * (spx_declaration.h), shared by hover (lookup.c) and the graph's outline
 * (index_walk.c's spx_graph_declaration).
 */
#include "spx_declaration.h"

#include "spx_builtins.h"
#include "spx_utf8.h"

#include <apr_strings.h>
#include <string.h>

const char *spx_declaration_function(const spx_function_t *function, apr_pool_t *pool)
{
    /* the signature is "fn(...) -> T": the name goes after "fn" */
    return apr_pstrcat(pool, function->exported ? "export " : "", "fn ", function->name.text,
                       spx_function_signature(function, pool) + 2, NULL);
}

const char *spx_declaration_struct(const spx_struct_t *structure, apr_pool_t *pool)
{
    const char *text = apr_pstrcat(pool, structure->exported ? "export " : "", "struct ",
                                   structure->name.text, " {", NULL);
    for (apr_size_t i = 0; i < structure->field_count; i++)
        text =
            apr_pstrcat(pool, text, i ? "," : "", " ", structure->fields[i].name.text, ": ",
                        spx_written_type_name(structure->fields[i].type_syntax,
                                              structure->fields[i].type, structure->module, pool),
                        NULL);
    return apr_pstrcat(pool, text, structure->field_count ? " }" : "}", NULL);
}

const char *spx_declaration_variant(const spx_enum_t *enumeration, const spx_variant_t *variant,
                                    apr_pool_t *pool)
{
    const char *text = variant->name.text;
    for (apr_size_t k = 0; k < variant->payload_count; k++)
        text =
            apr_pstrcat(pool, text, k ? ", " : "(",
                        spx_written_type_name(variant->payloads[k].type_syntax,
                                              variant->payloads[k].type, enumeration->module, pool),
                        NULL);
    return variant->payload_count ? apr_pstrcat(pool, text, ")", NULL) : text;
}

const char *spx_declaration_enum(const spx_enum_t *enumeration, apr_pool_t *pool)
{
    const char *text = apr_pstrcat(pool, enumeration->exported ? "export " : "", "enum ",
                                   enumeration->name.text, " {", NULL);
    for (apr_size_t v = 0; v < enumeration->variant_count; v++)
        text = apr_pstrcat(pool, text, v ? "," : "", " ",
                           spx_declaration_variant(enumeration, &enumeration->variants[v], pool),
                           NULL);
    return apr_pstrcat(pool, text, enumeration->variant_count ? " }" : "}", NULL);
}

const char *spx_declaration_const(const spx_const_t *constant, apr_pool_t *pool)
{
    const char *text = apr_pstrcat(
        pool, constant->exported ? "export " : "", "const ", constant->name.text, ": ",
        spx_written_type_name(constant->type_syntax, constant->type, constant->module, pool), NULL);
    if (constant->state != 2) /* not evaluated: a project with diagnostics */
        return text;
    switch (constant->value_type) {
    case SPX_TYPE_INT:
        return apr_psprintf(pool, "%s = %" APR_INT64_T_FMT, text, (apr_int64_t)constant->integer);
    case SPX_TYPE_BOOL:
        return apr_pstrcat(pool, text, " = ", constant->boolean ? "true" : "false", NULL);
    case SPX_TYPE_STR:
        return apr_pstrcat(pool, text, " = ",
                           spx_declaration_escaped(constant->bytes, constant->length, 1, pool),
                           NULL);
    default:
        return text;
    }
}

const char *spx_declaration_builtin(const char *name, apr_pool_t *pool)
{
    for (int b = SPX_BUILTIN_NONE + 1; b <= SPX_BUILTIN_COUNT; b++) {
        const spx_builtin_info_t *info = spx_builtin_info((spx_builtin_t)b);
        if (strcmp(info->name, name) == 0)
            return apr_pstrcat(pool, "builtin fn ", name, info->signature + 2, NULL);
    }
    return apr_pstrcat(pool, "builtin ", name, NULL);
}

const char *spx_declaration_module(const spx_module_t *module, apr_pool_t *pool)
{
    return apr_pstrcat(pool, "module ", module->name, " (", module->path, ")", NULL);
}

/* The code point of the UTF-8 sequence at bytes (length 2 to 4 bytes, as
 * spx_utf8_length measured it). */
static unsigned long code_point(const unsigned char *bytes, apr_size_t length)
{
    unsigned long value = bytes[0] & (0xffu >> (length + 1));
    for (apr_size_t i = 1; i < length; i++)
        value = value << 6 | (bytes[i] & 0x3fu);
    return value;
}

/* Whether a terminal would take the character for a control rather than
 * draw it: a C1 control (U+0080..U+009F, CSI among them), a byte order
 * mark, or a bidirectional override or isolate (which reorder the text
 * around them). */
static int hidden_character(unsigned long value)
{
    return (value >= 0x80 && value <= 0x9f) || value == 0xfeff ||
           (value >= 0x202a && value <= 0x202e) || (value >= 0x2066 && value <= 0x2069);
}

const char *spx_declaration_escaped(const char *bytes, apr_size_t length, int quoted,
                                    apr_pool_t *pool)
{
    /* at most 10 bytes ("\u{10ffff}") for each byte, the quotes and a NUL */
    char *out = apr_palloc(pool, length * 10 + 3), *at = out;
    const unsigned char *text = (const unsigned char *)bytes;
    if (quoted)
        *at++ = '"';
    for (apr_size_t i = 0; i < length;) {
        apr_size_t sequence = spx_utf8_length(text + i, length - i);
        if (sequence > 1) {
            unsigned long value = code_point(text + i, sequence);
            if (hidden_character(value))
                at += apr_snprintf(at, 11, "\\u{%lx}", value);
            else {
                memcpy(at, text + i, sequence);
                at += sequence;
            }
            i += sequence;
            continue;
        }
        unsigned char c = text[i++];
        if (c == '\n' || c == '\t' || c == '\r') {
            *at++ = '\\';
            *at++ = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        } else if (quoted && (c == '"' || c == '\\')) {
            *at++ = '\\';
            *at++ = (char)c;
        } else if (c < 0x20 || c >= 0x7f)
            at += apr_snprintf(at, 5, "\\x%02x", c);
        else
            *at++ = (char)c;
    }
    if (quoted)
        *at++ = '"';
    *at = '\0';
    return out;
}
