module example.com/fsapi

go 1.22
