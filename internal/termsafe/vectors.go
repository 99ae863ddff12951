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
}
