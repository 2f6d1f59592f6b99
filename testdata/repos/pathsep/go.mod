module example.com/pathsep

go 1.22
