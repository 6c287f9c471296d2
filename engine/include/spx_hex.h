/*
 * spx_hex.h: the value of a hexadecimal digit, written once for everything
 * that reads one: the lexer's integer literals and escapes, the manifest's
 * \u escapes and the language server's %XX in a file: URI.
 */
#ifndef SPX_HEX_H
#define SPX_HEX_H

/* 0 to 15 for '0'-'9', 'a'-'f' and 'A'-'F'; -1 for any other byte. */
static inline int spx_hex_digit_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif /* SPX_HEX_H */
