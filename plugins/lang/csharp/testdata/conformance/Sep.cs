using System;

namespace Sep
{
    public static class Rules
    {
        // IsSeparator reports whether c separates path elements.
        public static bool IsSeparator(char c)
        {
            if (OperatingSystem.IsWindows())
            {
                return c == '\\' || c == '/'; // osbench:target
            }
            return c == '/';
        }
    }
}
