using System;
using System.Runtime.InteropServices;

namespace Csplat
{
    // PathRules knows the separators and drive letters of the platform
    // it runs on.
    public static class PathRules
    {
        public static bool IsSeparator(char c)
        {
            if (OperatingSystem.IsWindows())
            {
                return c == '\\' || c == '/';
            }
            return c == '/';
        }

        public static string Drive(string path)
        {
            if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows))
            {
                if (path.Length >= 2 && path[1] == ':' && char.IsLetter(path[0]))
                {
                    return char.ToUpperInvariant(path[0]) + ":";
                }
            }
            return "";
        }

        public static bool TryListSeparator(out char sep)
        {
            if (OperatingSystem.IsWindows())
            {
                sep = ';';
                return true;
            }
            sep = ':';
            return true;
        }

        // A literal that mentions the check must not fool the masker.
        public static string Describe()
        {
            var s = @"if (OperatingSystem.IsWindows()) { "" }";
            return s.Length > 0 ? "rules" : "";
        }

        public static string ListSeparator()
        {
            if (OperatingSystem.IsWindows())
                return ";";
            return ":";
        }
    }
}
