% string_building: a char row built by concatenating sprintf results.
s = '';
cpu0 = cputime;
tic;
for i = 1:20000
    s = [s sprintf('%d,', i) 'x'];
end
wall = toc;
cpu = cputime - cpu0;
if numel(s) ~= 128894
    error('bench:wrong', 'string_building built %g characters', numel(s));
end
fprintf('string_building %.6f %.6f\n', cpu, wall);
