% minibatchqueue display, as on the reference pages (one output, then two)
ds = arrayDatastore(rand(10, 3));
mbq = minibatchqueue(ds)
mbq = minibatchqueue(ds, MiniBatchSize=256)
images = arrayDatastore(rand(10, 10, 6), IterationDimension=3);
labels = arrayDatastore(categorical(["a"; "b"; "a"; "b"; "a"; "b"]));
mbq2 = minibatchqueue(combine(images, labels), MiniBatchSize=2, MiniBatchFormat={'SSBC', 'BC'})
[X, Y] = next(mbq2);
size(X)
dims(X)
size(Y)
dims(Y)
mbq2.NumOutputs
mbq2.MiniBatchFormat
