module example.com/winsuite

go 1.22
