% combine pairs the reads of several datastores; transform applies a function to each read
x = (1:4)';
t = (10:10:40)';
dsX = arrayDatastore(x);
dsT = arrayDatastore(t);
cds = combine(dsX, dsT);
pair = read(cds)
pair = read(cds)
all = readall(cds)
tds = transform(dsX, @(c) {2 * c{1}});
doubled = read(tds)
everything = readall(tds)
both = transform(dsX, dsT, @(a, b) {a{1} + b{1}});
sumRead = read(both)
reset(cds)
hasdata(cds)
% the datastores combined are copies: reading cds does not move dsX
read(dsX)
