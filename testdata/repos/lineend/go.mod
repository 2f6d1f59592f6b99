module example.com/lineend

go 1.22
