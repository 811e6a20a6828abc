// Prints Spark 4.2's case mappings of every code point (upper, lower and
// initcap of the one-character string, as Spark's UTF8_BINARY functions
// compute them with ICU, spark.sql.ICU_CASE_MAPPINGS_ENABLED=true) where
// one differs from the character: "code point<TAB>upper<TAB>lower<TAB>initcap",
// each mapping as space-separated hexadecimal code points. Run by
// casemap.sh; dev-only.
import org.apache.spark.sql.catalyst.util.CollationSupport;
import org.apache.spark.unsafe.types.UTF8String;

public class CaseMap {
  static String hex(String s) {
    StringBuilder b = new StringBuilder();
    s.codePoints().forEach(cp -> b.append(b.length() == 0 ? "" : " ").append(Integer.toHexString(cp)));
    return b.toString();
  }

  public static void main(String[] args) {
    for (int cp = 0; cp <= 0x10FFFF; cp++) {
      if (cp >= 0xD800 && cp <= 0xDFFF) continue;
      if (!Character.isDefined(cp)) continue;
      String s = new String(Character.toChars(cp));
      UTF8String u = UTF8String.fromString(s);
      String up = CollationSupport.Upper.execBinaryICU(u).toString();
      String lo = CollationSupport.Lower.execBinaryICU(u).toString();
      String ti = CollationSupport.InitCap.execBinaryICU(u).toString();
      if (!up.equals(s) || !lo.equals(s) || !ti.equals(s)) {
        System.out.println(Integer.toHexString(cp) + "\t" + hex(up) + "\t" + hex(lo) + "\t" + hex(ti));
      }
    }
  }
}
