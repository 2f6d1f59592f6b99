public class SepTests { }
