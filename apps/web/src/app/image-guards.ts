function preventOnImages(event: Event): void {
  if (event.target instanceof HTMLImageElement) event.preventDefault();
}

/**
 * Spec §2: right-click and dragging of images are blocked everywhere, including images that
 * features add later, hence one listener on the document rather than a prop on each image.
 */
export function installImageGuards(doc: Document = document): () => void {
  doc.addEventListener('contextmenu', preventOnImages);
  doc.addEventListener('dragstart', preventOnImages);
  return () => {
    doc.removeEventListener('contextmenu', preventOnImages);
    doc.removeEventListener('dragstart', preventOnImages);
  };
}
