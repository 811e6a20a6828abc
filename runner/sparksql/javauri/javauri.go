// Package javauri parses URI references as java.net.URI's constructor
// does (JDK 17, RFC 2396 with Java's deviations), which Spark's parse_url
// and try_parse_url read URLs with: the raw components, a registry-based
// authority where the server form does not parse (a host with an
// underscore: no host), and the strings Java rejects. IPv6 literals are
// read with net/netip's grammar, a scope id (%eth0) with Java's; a literal
// netip and Java may judge apart is reported as unsupported rather than
// guessed.
// The package imports no other package of the product.
package javauri

import (
	"errors"
	"net/netip"
	"strconv"
	"unicode"
	"unicode/utf16"
)

// ErrSyntax is a URI Java rejects (URISyntaxException); ErrUnsupported is
// one this package does not judge.
var (
	ErrSyntax      = errors.New("invalid URI")
	ErrUnsupported = errors.New("URI form not reproduced")
)

// URI holds the raw components; nil where Java's getter returns null.
type URI struct {
	Scheme, Authority, UserInfo, Host, Path, Query, Fragment *string
}

// character classes (ASCII); escaped marks those that admit %XX escapes
// and visible non-ASCII characters.
type class struct {
	set     [128]bool
	escaped bool
}

func mk(escaped bool, parts ...string) *class {
	c := &class{escaped: escaped}
	for _, p := range parts {
		for i := 0; i < len(p); i++ {
			c.set[p[i]] = true
		}
	}
	return c
}

const (
	digits  = "0123456789"
	alphas  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	hexs    = digits + "abcdefABCDEF"
	mark    = "-_.!~*'()"
	unres   = digits + alphas + mark
	reserve = ";/?:@&=+$,[]"
)

var (
	cDigit     = mk(false, digits)
	cAlpha     = mk(false, alphas)
	cAlphanum  = mk(false, digits, alphas)
	cAlnumDash = mk(false, digits, alphas, "-")
	cDigitDot  = mk(false, digits, ".")
	cHex       = mk(false, hexs)
	cURIC      = mk(true, reserve, unres)
	cPath      = mk(true, unres, ":@&=+$,", ";/")
	cUserInfo  = mk(true, unres, ";:&=+$,")
	cRegName   = mk(true, unres, "$,;:@&=+")
	cServer    = mk(true, unres, ";:&=+$,", digits, alphas, "-", ".:@[]")
	cServerPct = mk(true, unres, ";:&=+$,", digits, alphas, "-", ".:@[]", "%")
	cScheme    = mk(false, alphas, digits, "+-.")
	cScopeID   = mk(false, alphas, digits, "_.")
)

type parser struct {
	in  []uint16
	uri URI
	err error
}

func (c *class) match(u uint16) bool { return u != 0 && u < 128 && c.set[u] }

func (p *parser) fail() {
	if p.err == nil {
		p.err = ErrSyntax
	}
}

func (p *parser) at(i, n int, c byte) bool { return i < n && p.in[i] == uint16(c) }

// scanEscape is Java's: an escape's end, a visible non-ASCII character's,
// or start; a malformed escape fails the parse.
func (p *parser) scanEscape(i, n int) int {
	c := p.in[i]
	if c == '%' {
		if i+3 <= n && cHex.match(p.in[i+1]) && cHex.match(p.in[i+2]) {
			return i + 3
		}
		p.fail()
		return i
	}
	if c > 128 && !javaSpaceChar(c) && !javaISOControl(c) {
		return i + 1
	}
	return i
}

func javaSpaceChar(c uint16) bool {
	r := rune(c)
	if r >= 0xD800 && r <= 0xDFFF {
		return false
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}

func javaISOControl(c uint16) bool { return c <= 0x1F || (c >= 0x7F && c <= 0x9F) }

func (p *parser) scanClass(i, n int, c *class) int {
	for i < n && p.err == nil {
		if c.match(p.in[i]) {
			i++
			continue
		}
		if c.escaped {
			if q := p.scanEscape(i, n); q > i {
				i = q
				continue
			}
		}
		break
	}
	return i
}

// scanStop is Java's scan(start, end, err, stop): -1 at a character of
// err, the index of the first character of stop, or end.
func (p *parser) scanStop(i, n int, errs, stop string) int {
	for ; i < n; i++ {
		c := p.in[i]
		for k := 0; k < len(errs); k++ {
			if c == uint16(errs[k]) {
				return -1
			}
		}
		for k := 0; k < len(stop); k++ {
			if c == uint16(stop[k]) {
				return i
			}
		}
	}
	return i
}

func (p *parser) checkChars(i, n int, c *class) {
	if q := p.scanClass(i, n, c); q < n {
		p.fail()
	}
}

func (p *parser) str(i, j int) *string {
	s := string(utf16.Decode(p.in[i:j]))
	return &s
}

// Parse parses s as new java.net.URI(s) does.
func Parse(s string) (*URI, error) {
	p := &parser{in: utf16.Encode([]rune(s))}
	p.parse()
	if p.err != nil {
		return nil, p.err
	}
	return &p.uri, nil
}

func (p *parser) parse() {
	n := len(p.in)
	i := p.scanStop(0, n, "/?#", ":")
	if i >= 0 && p.at(i, n, ':') {
		if i == 0 || !cAlpha.match(p.in[0]) {
			p.fail()
			return
		}
		p.checkChars(1, i, cScheme)
		if p.err != nil {
			return
		}
		p.uri.Scheme = p.str(0, i)
		i++
		if p.at(i, n, '/') {
			i = p.parseHierarchical(i, n)
		} else {
			q := p.scanStop(i, n, "", "#")
			if q <= i {
				p.fail()
				return
			}
			p.checkChars(i, q, cURIC)
			i = q
		}
	} else {
		i = p.parseHierarchical(0, n)
	}
	if p.err != nil {
		return
	}
	if p.at(i, n, '#') {
		p.checkChars(i+1, n, cURIC)
		p.uri.Fragment = p.str(i+1, n)
		i = n
	}
	if i < n {
		p.fail()
	}
}

func (p *parser) parseHierarchical(i, n int) int {
	if p.at(i, n, '/') && p.at(i+1, n, '/') {
		i += 2
		q := p.scanStop(i, n, "", "/?#")
		if q > i {
			i = p.parseAuthority(i, q)
		} else if q >= n {
			p.fail()
		}
		if p.err != nil {
			return i
		}
	}
	q := p.scanStop(i, n, "", "?#")
	p.checkChars(i, q, cPath)
	p.uri.Path = p.str(i, q)
	i = q
	if p.at(i, n, '?') {
		i++
		q = p.scanStop(i, n, "", "#")
		p.checkChars(i, q, cURIC)
		p.uri.Query = p.str(i, q)
		i = q
	}
	return i
}

func (p *parser) parseAuthority(i, n int) int {
	var serverChars bool
	if p.scanStop(i, n, "", "]") > i {
		serverChars = p.scanClass(i, n, cServerPct) == n
	} else {
		serverChars = p.scanClass(i, n, cServer) == n
	}
	if p.err != nil {
		return n
	}
	regChars := p.scanClass(i, n, cRegName) == n
	if p.err != nil {
		return n
	}
	if regChars && !serverChars {
		p.uri.Authority = p.str(i, n)
		return n
	}
	q := i
	var serverErr error
	if serverChars {
		sub := &parser{in: p.in}
		q = sub.parseServer(i, n)
		if sub.err == nil && q < n {
			sub.fail()
		}
		if sub.err == nil {
			p.uri.UserInfo, p.uri.Host = sub.uri.UserInfo, sub.uri.Host
			p.uri.Authority = p.str(i, n)
		} else {
			serverErr = sub.err
			q = i
		}
	}
	if q < n {
		switch {
		case regChars:
			p.uri.Authority = p.str(i, n)
		case serverErr != nil:
			p.err = serverErr
		default:
			p.fail()
		}
	}
	return n
}

func (p *parser) parseServer(i, n int) int {
	q := p.scanStop(i, n, "/?#", "@")
	if q >= i && p.at(q, n, '@') {
		p.checkChars(i, q, cUserInfo)
		if p.err != nil {
			return i
		}
		p.uri.UserInfo = p.str(i, q)
		i = q + 1
	}
	if p.at(i, n, '[') {
		i++
		q = p.scanStop(i, n, "/?#", "]")
		if q > i && p.at(q, n, ']') {
			// A scope id: the address up to the first '%', then at
			// least one of Java's L_SCOPE_ID (letters, digits, '_',
			// '.'); a '%' first is part of the address (malformed).
			r := i
			for r < q && p.in[r] != '%' {
				r++
			}
			if r == i {
				p.fail()
				return i
			}
			lit := string(utf16.Decode(p.in[i:r]))
			a, err := netip.ParseAddr(lit)
			if err != nil || !a.Is6() || a.Zone() != "" {
				p.err = ErrUnsupported
				return i
			}
			if r < q {
				if r+1 == q {
					p.fail()
					return i
				}
				p.checkChars(r+1, q, cScopeID)
				if p.err != nil {
					return i
				}
			}
			p.uri.Host = p.str(i-1, q+1)
			i = q + 1
		} else {
			p.fail()
			return i
		}
	} else {
		q = p.parseIPv4(i, n)
		if q <= i {
			q = p.parseHostname(i, n)
		}
		if p.err != nil {
			return i
		}
		i = q
	}
	if p.at(i, n, ':') {
		i++
		q = p.scanClass(i, n, cDigit)
		if q > i {
			if _, err := strconv.ParseInt(string(utf16.Decode(p.in[i:q])), 10, 32); err != nil {
				p.fail()
				return i
			}
			i = q
		}
	}
	if i < n {
		p.fail()
	}
	return i
}

// parseIPv4 is Java's parseIPv4Address: the end of an IPv4 address at
// start (followed by the end or a colon), or -1.
func (p *parser) parseIPv4(start, n int) int {
	m := p.scanClass(start, n, cDigitDot)
	if m <= start {
		return -1
	}
	i := start
	for k := 0; k < 4; k++ {
		if k > 0 {
			if !p.at(i, m, '.') {
				return -1
			}
			i++
		}
		q := p.scanClass(i, m, cDigit)
		if q <= i {
			return -1
		}
		if v, err := strconv.Atoi(string(utf16.Decode(p.in[i:q]))); err != nil || v > 255 {
			return -1
		}
		i = q
	}
	if i < m {
		return -1
	}
	if i < n && p.in[i] != ':' {
		return -1
	}
	p.uri.Host = p.str(start, i)
	return i
}

func (p *parser) parseHostname(start, n int) int {
	i, l := start, -1
	for {
		q := p.scanClass(i, n, cAlphanum)
		if q <= i {
			break
		}
		l = i
		i = q
		q = p.scanClass(i, n, cAlnumDash)
		if q > i {
			if p.in[q-1] == '-' {
				p.fail()
				return i
			}
			i = q
		}
		if !p.at(i, n, '.') {
			break
		}
		i++
		if i >= n {
			break
		}
	}
	if i < n && !p.at(i, n, ':') {
		p.fail()
		return i
	}
	if l < 0 {
		p.fail()
		return i
	}
	if l > start && !cAlpha.match(p.in[l]) {
		p.fail()
		return i
	}
	p.uri.Host = p.str(start, i)
	return i
}

// Part is Spark's parse_url part of u (PROTOCOL, HOST, PATH, QUERY, REF,
// FILE, AUTHORITY, USERINFO; case-sensitive), false for NULL.
func (u *URI) Part(part string) (string, bool) {
	var v *string
	switch part {
	case "PROTOCOL":
		v = u.Scheme
	case "HOST":
		v = u.Host
	case "PATH":
		v = u.Path
	case "QUERY":
		v = u.Query
	case "REF":
		v = u.Fragment
	case "FILE":
		if u.Path != nil && u.Query != nil {
			return *u.Path + "?" + *u.Query, true
		}
		v = u.Path
	case "AUTHORITY":
		v = u.Authority
	case "USERINFO":
		v = u.UserInfo
	}
	if v == nil {
		return "", false
	}
	return *v, true
}
