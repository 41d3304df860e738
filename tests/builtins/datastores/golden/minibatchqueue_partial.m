% PartialMiniBatch, a mini-batch larger than the data, and an empty datastore
ds = arrayDatastore(magic(3));
mbq = minibatchqueue(ds, MiniBatchSize=10, OutputAsDlarray=false, OutputCast="double");
X = next(mbq)
hasdata(mbq)
mbq = minibatchqueue(ds, MiniBatchSize=10, PartialMiniBatch="discard");
hasdata(mbq)
mbq = minibatchqueue(ds, MiniBatchSize=2, PartialMiniBatch="discard", OutputAsDlarray=false);
n = 0;
while hasdata(mbq)
    X = next(mbq);
    n = n + size(X, 1);
end
n
empty = minibatchqueue(arrayDatastore(zeros(0, 3)), MiniBatchSize=4);
hasdata(empty)
try
    X = next(empty);
catch err
    disp(err.identifier)
end
