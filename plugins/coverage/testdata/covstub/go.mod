module example.com/covstub

go 1.22
