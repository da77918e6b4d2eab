test('the web project runs in a DOM', () => {
  expect(document.createElement('div').tagName).toBe('DIV');
});
