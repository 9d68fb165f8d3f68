import { afterEach, describe, expect, it } from 'vitest';
import { installImageGuards } from './image-guards';

function dispatch(target: Element, type: string): boolean {
  return target.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true }));
}

describe('installImageGuards', () => {
  let uninstall: (() => void) | undefined;
  afterEach(() => {
    uninstall?.();
    document.body.innerHTML = '';
  });

  it('prevents the context menu and dragging on images only', () => {
    const img = document.createElement('img');
    const link = document.createElement('a');
    document.body.append(img, link);
    uninstall = installImageGuards();

    expect(dispatch(img, 'contextmenu')).toBe(false);
    expect(dispatch(img, 'dragstart')).toBe(false);
    expect(dispatch(link, 'contextmenu')).toBe(true);
    expect(dispatch(link, 'dragstart')).toBe(true);
  });

  it('stops guarding once uninstalled', () => {
    const img = document.createElement('img');
    document.body.append(img);
    installImageGuards()();
    expect(dispatch(img, 'contextmenu')).toBe(true);
  });
});
