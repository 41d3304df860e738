% N-D dlarrays: the header, then each page as (:,:,k) without a name.
x = dlarray(reshape(1:8,2,2,2))
y = dlarray(reshape(1:8,2,2,1,2),'SSCB')
z = dlarray(single(reshape(1:4,1,2,2)))
