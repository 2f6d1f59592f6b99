module example.com/gostub

go 1.22
