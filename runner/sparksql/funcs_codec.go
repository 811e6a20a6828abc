package sparksql

// Checksums and URL encodings: functions whose every byte is specified
// (java.util.zip.CRC32, java.net.URLEncoder and URLDecoder with UTF-8),
// computed over the UTF-8 bytes of their input.

// crc32Table is the CRC-32 (IEEE 802.3, reflected) table of
// java.util.zip.CRC32.
const crc32Table = "[0, 1996959894, 3993919788, 2567524794, 124634137, 1886057615, 3915621685, 2657392035, 249268274, 2044508324, 3772115230, 2547177864, 162941995, 2125561021, 3887607047, 2428444049, 498536548, 1789927666, 4089016648, 2227061214, 450548861, 1843258603, 4107580753, 2211677639, 325883990, 1684777152, 4251122042, 2321926636, 335633487, 1661365465, 4195302755, 2366115317, 997073096, 1281953886, 3579855332, 2724688242, 1006888145, 1258607687, 3524101629, 2768942443, 901097722, 1119000684, 3686517206, 2898065728, 853044451, 1172266101, 3705015759, 2882616665, 651767980, 1373503546, 3369554304, 3218104598, 565507253, 1454621731, 3485111705, 3099436303, 671266974, 1594198024, 3322730930, 2970347812, 795835527, 1483230225, 3244367275, 3060149565, 1994146192, 31158534, 2563907772, 4023717930, 1907459465, 112637215, 2680153253, 3904427059, 2013776290, 251722036, 2517215374, 3775830040, 2137656763, 141376813, 2439277719, 3865271297, 1802195444, 476864866, 2238001368, 4066508878, 1812370925, 453092731, 2181625025, 4111451223, 1706088902, 314042704, 2344532202, 4240017532, 1658658271, 366619977, 2362670323, 4224994405, 1303535960, 984961486, 2747007092, 3569037538, 1256170817, 1037604311, 2765210733, 3554079995, 1131014506, 879679996, 2909243462, 3663771856, 1141124467, 855842277, 2852801631, 3708648649, 1342533948, 654459306, 3188396048, 3373015174, 1466479909, 544179635, 3110523913, 3462522015, 1591671054, 702138776, 2966460450, 3352799412, 1504918807, 783551873, 3082640443, 3233442989, 3988292384, 2596254646, 62317068, 1957810842, 3939845945, 2647816111, 81470997, 1943803523, 3814918930, 2489596804, 225274430, 2053790376, 3826175755, 2466906013, 167816743, 2097651377, 4027552580, 2265490386, 503444072, 1762050814, 4150417245, 2154129355, 426522225, 1852507879, 4275313526, 2312317920, 282753626, 1742555852, 4189708143, 2394877945, 397917763, 1622183637, 3604390888, 2714866558, 953729732, 1340076626, 3518719985, 2797360999, 1068828381, 1219638859, 3624741850, 2936675148, 906185462, 1090812512, 3747672003, 2825379669, 829329135, 1181335161, 3412177804, 3160834842, 628085408, 1382605366, 3423369109, 3138078467, 570562233, 1426400815, 3317316542, 2998733608, 733239954, 1555261956, 3268935591, 3050360625, 752459403, 1541320221, 2607071920, 3965973030, 1969922972, 40735498, 2617837225, 3943577151, 1913087877, 83908371, 2512341634, 3803740692, 2075208622, 213261112, 2463272603, 3855990285, 2094854071, 198958881, 2262029012, 4057260610, 1759359992, 534414190, 2176718541, 4139329115, 1873836001, 414664567, 2282248934, 4279200368, 1711684554, 285281116, 2405801727, 4167216745, 1634467795, 376229701, 2685067896, 3608007406, 1308918612, 956543938, 2808555105, 3495958263, 1231636301, 1047427035, 2932959818, 3654703836, 1088359270, 936918000, 2847714899, 3736837829, 1202900863, 817233897, 3183342108, 3401237130, 1404277552, 615818150, 3134207493, 3453421203, 1423857449, 601450431, 3009837614, 3294710456, 1567103746, 711928724, 3020668471, 3272380065, 1510334235, 755167117]"

// Java's URLEncoder leaves a-z, A-Z, 0-9 and . - * _ as they are, writes
// a space as + and every other byte as %XX.
const urlEncodeSafe = "(m_ueb BETWEEN 48 AND 57 OR m_ueb BETWEEN 65 AND 90 OR m_ueb BETWEEN 97 AND 122 OR m_ueb IN (42, 45, 46, 95))"

var codecMacros = []macro{
	// The byte at hex digit offset i of a hex string.
	{"spark_hex_byte", "h, i", "(instr('0123456789ABCDEF', substr(h, i + 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(h, i + 2, 1)) - 1"},
	{"spark_crc32", "b", "CASE WHEN b IS NULL THEN NULL ELSE list_transform([hex(b)], m_crh -> xor(list_reduce(list_transform(range(0, len(m_crh), 2), m_cri -> spark_hex_byte(m_crh, m_cri)), (m_crc, m_crb) -> xor(CAST(" + crc32Table + "[(xor(m_crc, m_crb) & 255) + 1] AS BIGINT), m_crc >> 8), CAST(4294967295 AS BIGINT)), CAST(4294967295 AS BIGINT)))[1] END"},
	{"spark_url_encode", "s", "CASE WHEN s IS NULL THEN NULL ELSE list_transform([hex(encode(s))], m_ueh -> array_to_string(list_transform(range(0, len(m_ueh), 2), m_uei -> list_transform([spark_hex_byte(m_ueh, m_uei)], m_ueb -> CASE WHEN " + urlEncodeSafe + " THEN chr(CAST(m_ueb AS INTEGER)) WHEN m_ueb = 32 THEN '+' ELSE '%' || substr(m_ueh, m_uei + 1, 2) END)[1]), ''))[1] END"},
	// URLDecoder: + is a space, %XX a byte, the bytes UTF-8; NULL when
	// they are not UTF-8 (Java replaces those bytes with U+FFFD).
	{"spark_url_valid", "s", "regexp_full_match(s, '([^%]|%[0-9A-Fa-f]{2})*')"},
	{"spark_url_bytes", "s", "TRY(decode(unhex(array_to_string(list_transform(regexp_extract_all(replace(s, '+', ' '), '%[0-9A-Fa-f]{2}|[^%]'), m_udt -> CASE WHEN left(m_udt, 1) = '%' THEN substr(m_udt, 2) ELSE hex(encode(m_udt)) END), ''))))"},
	{"spark_url_utf8", "s", "coalesce(spark_url_bytes(s), error('[LOCALLY_UNSUPPORTED.URL_DECODE] url_decode of escapes that are not UTF-8: Spark replaces them with U+FFFD, which the local run does not reproduce.'))"},
	{"spark_url_decode", "s, try", "CASE WHEN s IS NULL THEN NULL WHEN spark_url_valid(s) THEN spark_url_utf8(s) WHEN try THEN NULL " +
		"ELSE error('[CANNOT_DECODE_URL] The provided URL cannot be decoded: ' || s || '. Please ensure that the URL is properly formatted and try again.') END"},
}

func codecFuncs() []*fnDef {
	return append([]*fnDef{
		fn("crc32", Macro, 1, 1, func(c *fcall) (*rx, error) {
			if k := c.args[0].t.Kind; k != KBinary && k != KString && k != KVoid {
				return nil, c.wrongType(0, "\"BINARY\"")
			}
			b, err := c.binary(0)
			if err != nil {
				return nil, err
			}
			return c.out(tLong, "spark_crc32("+b+")"), nil
		}),
		fn("url_encode", Macro, 1, 1, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			return c.out(tString, "spark_url_encode("+s.sql+")"), nil
		}),
		fn("url_decode", Macro, 1, 1, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			return c.out(tString, "spark_url_decode("+s.sql+", false)"), nil
		}),
		fn("try_url_decode", Macro, 1, 1, func(c *fcall) (*rx, error) {
			s, err := c.str(0)
			if err != nil {
				return nil, err
			}
			return c.out(tString, "spark_url_decode("+s.sql+", true)"), nil
		}),
	}, cleanFuncs()...)
}
