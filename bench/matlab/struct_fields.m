% struct_fields: field reads and writes on a struct (with a nested struct) in a loop.
p.x = 0;
p.y = 0;
p.inner.count = 0;
cpu0 = cputime;
tic;
for i = 1:100000
    p.x = p.x + i;
    p.y = p.x * 0.5;
    p.inner.count = p.inner.count + 1;
end
wall = toc;
cpu = cputime - cpu0;
if p.x ~= 5000050000 || p.inner.count ~= 100000
    error('bench:wrong', 'struct_fields computed x=%g', p.x);
end
fprintf('struct_fields %.6f %.6f\n', cpu, wall);
