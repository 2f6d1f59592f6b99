using System;
using Xunit;
using Csplat;

public class PathRulesTests
{
    [Fact]
    public void SlashSeparates() => Assert.True(PathRules.IsSeparator('/'));

    [Fact]
    public void BackslashSeparatesOnWindows() =>
        Assert.Equal(OperatingSystem.IsWindows(), PathRules.IsSeparator('\\'));

    [Fact]
    public void DriveOnWindows() =>
        Assert.Equal(OperatingSystem.IsWindows() ? "C:" : "", PathRules.Drive("c:\\x"));
}
