% categorical labels become their category numbers (a MATLAB Answers example)
data=categorical(["red","green","violet","red","green","violet","violet","red","green","violet","magenta","yellow"]);
ds=arrayDatastore(data,'IterationDimension',2);
sample=ds.read;
fprintf('arraydatastore outputs data with type %s\n',class(sample{1}));
mbq=minibatchqueue(ds,MiniBatchSize=3);
minibatch=mbq.next;
fprintf('mbq outputs a mini batch data with type %s\n',class(minibatch));
minibatch
c = categories(data);
c(extractdata(minibatch))
