using System.Collections.Generic;

namespace Csplat
{
    public static class LineEnd
    {
        public static string Native()
        {
#if WINDOWS
            return "\r\n";
#else
            return "\n";
#endif
        }

        public static IEnumerable<string> Terminators()
        {
#if WINDOWS
            yield return "\r\n";
#endif
            yield return "\n";
        }

#if WINDOWS
        public static int CodePage()
        {
            return 65001;
        }
#endif
    }
}
