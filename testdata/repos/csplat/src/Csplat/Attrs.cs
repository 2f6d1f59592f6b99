using System;
using System.IO;
using System.Runtime.Versioning;

namespace Csplat
{
    public static class Attrs
    {
        public static bool IsHidden(string path)
        {
            if (OperatingSystem.IsWindows())
            {
                return HiddenOnWindows(path);
            }
            return Path.GetFileName(path).StartsWith(".");
        }

        [SupportedOSPlatform("windows")]
        private static bool HiddenOnWindows(string path)
        {
            var attrs = File.GetAttributes(path);
            return (attrs & FileAttributes.Hidden) != 0;
        }

        [SupportedOSPlatform("windows")]
        public static string HomeDir() => Environment.GetEnvironmentVariable("USERPROFILE") ?? "";
    }
}
