package termsafe

// Vectors are String's cases, for the C init stage's escaping to be
// checked against as well (nsexec's TestCLogEscapes).
var Vectors = []struct{ In, Want string }{
	{"plain /path/é", "plain /path/é"},
	{"x\x1b]52;c;cHdu\a\x1b[2K\rLooks fine\nomega-run: info: ok", `x\u001b]52;c;cHdu\u0007\u001b[2K\u000dLooks fine\u000aomega-run: info: ok`},
	{"del\x7f c1\u009b bad\x9b", `del\u007f c1\u009b bad\x9b`},
	{"cut \xe2\x82", `cut \xe2\x82`},
	{"4-byte 𝄞 and \xf0\x9d", `4-byte 𝄞 and \xf0\x9d`},
	{"overlong \xe0\x82\x9b surrogate \xed\xa0\x80 past \xf4\x90\x80\x80 \xf0\x80\x80\x80", `overlong \xe0\x82\x9b surrogate \xed\xa0\x80 past \xf4\x90\x80\x80 \xf0\x80\x80\x80`},
	{"replacement \ufffd, c0 \xc0\x80", `replacement \ufffd, c0 \xc0\x80`},
	{"edges \xed\x9f\xbf \xf4\x8f\xbf\xbf", "edges \xed\x9f\xbf \xf4\x8f\xbf\xbf"},
	// Bidirectional formatting characters reorder what a terminal shows
	// (a path spelt backwards after U+202E); the letters around them and
	// U+2065, U+206A, U+2029 (not bidi controls) stay.
	{"/p/\u202egnp.sh \u202a\u202b\u202c\u202d \u2066\u2067\u2068\u2069 \u200e\u200f \u061c", `/p/\u202egnp.sh \u202a\u202b\u202c\u202d \u2066\u2067\u2068\u2069 \u200e\u200f \u061c`},
	// Zero-width characters hide in a name (.bashrc\u200b looks like
	// .bashrc); U+200A (hair space), U+2061 and U+FEFE stay.
	{"/h/.bash\u200brc \u200c\u200d \u2060 \ufeff", `/h/.bash\u200brc \u200c\u200d \u2060 \ufeff`},
	{"keep \u2065\u206a\u2029\u061b \u200a\u2061\ufefe", "keep \u2065\u206a\u2029\u061b \u200a\u2061\ufefe"},
}

// JSONVectors are messages and the inside of the JSON string that
// encodes them, as the Go side writes it (encoding/json, then Encoded)
// and the C init stage must too (nsexec's TestCLogJSON).
var JSONVectors = []struct{ In, Want string }{
	{"plain /path/é", "plain /path/é"},
	{"q\" b\\ <a&b> \u2028\u2029", `q\" b\\ \u003ca\u0026b\u003e \u2028\u2029`},
	{"x\x1b]52;c;cHdu\a\r\n\t", `x\u001b]52;c;cHdu\u0007\r\n\t`},
	{"del\x7f c1\u009b\u0085 bad\x9b cut \xe2\x82", `del\u007f c1\u009b\u0085 bad\ufffd cut \ufffd\ufffd`},
	{"overlong \xe0\x82\x9b surrogate \xed\xa0\x80 past \xf4\x90\x80\x80", `overlong \ufffd\ufffd\ufffd surrogate \ufffd\ufffd\ufffd past \ufffd\ufffd\ufffd\ufffd`},
	{"/p/\u202egnp.sh \u2066\u2069 \u200e\u200f \u061c", `/p/\u202egnp.sh \u2066\u2069 \u200e\u200f \u061c`},
	{"/h/.bash\u200brc \u200c\u200d \u2060 \ufeff", `/h/.bash\u200brc \u200c\u200d \u2060 \ufeff`},
	{"keep 𝄞 \u2065\u206a\u061b \u200a, U+FFFD \ufffd", "keep 𝄞 \u2065\u206a\u061b \u200a, U+FFFD \\ufffd"},
}
